import type { Context } from "probot";
import { z } from "zod";
import type { appWatchSchema } from "../../src/config/watch-settings-schema.js";
import { dispatchWatchStep, mergeRunTitle } from "../../src/github/dispatch-watch-step.js";
import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { isDefiniteRefusal } from "../../src/github/is-definite-refusal.js";
import { NotOnMainError, listMainRange } from "../../src/github/list-main-range.js";
import type { CommitInfo } from "../../src/github/read-commit.js";
import { readCommit } from "../../src/github/read-commit.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { pushPayloadSchema } from "../payloads/push-payload.js";
import { mainLane } from "../store/derive-work-key.js";
import type { JobContext, WorkRequest } from "../work/app-work.js";
import { type AppDeps, loadRepoConfig } from "./app-deps.js";
import { installationOf } from "./intake-delivery.js";
import { openJob } from "./open-job.js";

/*
 * watch.everyMerge (docs/watching-main.md): each push to the default branch dispatches the watch workflow
 * once for every new first-parent commit of main in it, the commit against its first parent, as a round the
 * app reads back like a bisection's step (read-watch-card.ts, judge-merge-round.ts). The range is read
 * through the API (list-main-range.ts), never from the payload's `commits` (at most 20, and a merged
 * branch's own commits among them, which main was never at). Each round's dispatch is recorded under the
 * merge's SHA before it is sent (src/store/run-side-effect-once.ts): a redelivered push, a restart, or two
 * pushes naming the same commit never start a second GPU run of it.
 */

const ZERO_SHA = /^0+$/;

/**
 * The most merges one push dispatches rounds for: a push that lands more (a long history fast-forwarded
 * onto main) has its newest ones scored, the rest left to the nightly drift round, so one push cannot
 * queue days of runner time.
 */
export const MAX_MERGES_PER_PUSH = 20;

const pushJobSchema = pushPayloadSchema.extend({ installationId: z.number().int() });
type PushJobPayload = z.output<typeof pushJobSchema>;

/** push: a push to the default branch is stored as work (the settings are read by the job); any other ref is nothing to do. */
export function intakePush(context: Context<"push">): WorkRequest | string {
  const parsed = parsePayload(context, pushPayloadSchema);
  if (!parsed) return "the payload is not a push the app can read";
  const installationId = installationOf(context);
  if (installationId === null) return "the delivery names no installation";
  const push = parsed.payload;
  if (push.ref !== `refs/heads/${push.repository.default_branch}`) return `${push.ref} is not the default branch`;
  if (push.deleted || ZERO_SHA.test(push.after)) return "the push deleted the default branch: no merge to score";
  const payload: PushJobPayload = { ...push, installationId };
  const repository = `${parsed.repo.owner}/${parsed.repo.repo}`.toLowerCase();
  return {
    task: "merge-push",
    payload,
    // What the push identifies: the ref moved from one commit to another (a redelivery carries the same two).
    key: `push:${repository}:${push.before}:${push.after}`,
    lane: mainLane(repository),
    deliveryId: context.id,
  };
}

/** Dispatches one round of a merge against its parent, once ever for that merge and round. */
export async function dispatchMergeRound(
  deps: AppDeps,
  client: GitHubClient,
  repo: RepoRef & { ref: string; workflow: string },
  merge: { sha: string; parent: string; round: number },
  job: JobContext,
): Promise<void> {
  const repository = `${repo.owner}/${repo.repo}`.toLowerCase();
  const outcome = await deps.store.sideEffects.once({
    key: `merge:${repository}:${merge.sha}:dispatch:${merge.round}`,
    kind: "dispatch",
    isDefiniteRefusal,
    send: async () =>
      await dispatchWatchStep(client, {
        owner: repo.owner,
        repo: repo.repo,
        workflow: repo.workflow,
        ref: repo.ref,
        base: merge.parent,
        head: merge.sha,
        step: mergeRunTitle(merge.sha, merge.round),
      }),
  });
  const name = `round ${merge.round} of merge ${merge.sha.slice(0, 12)}`;
  if (outcome.state === "uncertain")
    job.log.warn({ work: job.key, merge: merge.sha }, `${name} may not have been dispatched: ${outcome.reason}`);
  else if (outcome.sentNow)
    job.log.info({ work: job.key, merge: merge.sha }, `dispatched ${name} against its parent ${merge.parent.slice(0, 12)}`);
  else job.log.info({ work: job.key, merge: merge.sha }, `${name} was dispatched before: not sent again`);
}

/**
 * The new first-parent commits of main a push brought, oldest first. A push that created the branch, or a
 * forced one (its old head is not on the new head's first-parent history), has its new head only: what a
 * rewritten history's other commits did was measured under their old SHAs, or is the nightly drift round's.
 */
async function newMerges(client: GitHubClient, repo: RepoRef, push: PushJobPayload, job: JobContext): Promise<CommitInfo[]> {
  const headOnly = async (why: string): Promise<CommitInfo[]> => {
    job.log.info({ work: job.key }, `${why}: only its new head ${push.after.slice(0, 12)} is scored against its parent`);
    return [await readCommit(client, { ...repo, ref: push.after })];
  };
  if (push.created || ZERO_SHA.test(push.before)) return await headOnly("the push created the default branch");
  if (push.forced) return await headOnly("a forced push rewrote the default branch");
  try {
    return (await listMainRange(client, { ...repo, good: push.before, bad: push.after })).slice(1);
  } catch (error) {
    if (!(error instanceof NotOnMainError)) throw error;
    return await headOnly("the old head is not on the new head's first-parent history");
  }
}

/** The merge-push job: with watch.everyMerge on, one round dispatched per new first-parent commit, each against its first parent. */
export function mergePushJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const opened = await openJob(deps, pushJobSchema, raw, job);
    if (!opened) return;
    const { payload, repo, client } = opened;
    const config = await loadRepoConfig(client, repo);
    if (!config.ok) {
      job.log.warn({ work: job.key }, `the app's settings for ${repo.owner}/${repo.repo} are invalid: no merge is scored`);
      return;
    }
    const watch = config.config.watch;
    if (!watch?.everyMerge) {
      job.log.info({ work: job.key }, `watch.everyMerge is off for ${repo.owner}/${repo.repo}: no merge is scored`);
      return;
    }
    if (!deps.store.main) {
      job.log.warn({ work: job.key }, "the app has no database: main's series is not kept and no merge is scored");
      return;
    }
    const settings: z.output<typeof appWatchSchema> = watch;
    const merges = await newMerges(client, repo, payload, job);
    const scored = merges.slice(-MAX_MERGES_PER_PUSH);
    if (scored.length < merges.length) {
      job.log.warn(
        { work: job.key },
        `the push brought ${merges.length} commits to main: the newest ${scored.length} are scored, the rest left to the drift round`,
      );
    }
    for (const merge of scored) {
      const parent = merge.parents[0];
      if (!parent) {
        job.log.info({ work: job.key }, `${merge.sha.slice(0, 12)} has no parent: nothing to score it against`);
        continue;
      }
      await dispatchMergeRound(
        deps,
        client,
        { ...repo, ref: payload.repository.default_branch, workflow: settings.workflow },
        { sha: merge.sha, parent, round: 1 },
        job,
      );
    }
  };
}
