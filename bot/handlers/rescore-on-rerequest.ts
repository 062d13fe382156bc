import type { Context } from "probot";
import { z } from "zod";
import { findPullRequestForCommit, getPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import { CHECK_NAME } from "../../src/github/publish-check-run.js";
import { answerRefusal } from "./answer-refusal.js";
import { type AppDeps, loadRepoConfig } from "./app-deps.js";
import { installationOf } from "./intake-delivery.js";
import { checkRunPayloadSchema } from "../payloads/check-run-payload.js";
import { parsePayload, repositorySchema } from "../payloads/parse-payload.js";
import { describeUncertainDispatch, mayRescore, startRescore, whoMayRescore } from "./start-rescore.js";
import { checkRunWorkKey, pullRequestLane } from "../store/derive-work-key.js";
import type { JobContext, WorkRequest } from "../work/app-work.js";
import { openJob } from "./open-job.js";

const rerequestSchema = z.object({
  installationId: z.number().int(),
  repository: repositorySchema,
  headSha: z.string(),
  presser: z.string(),
  /** The pull request, once known: GitHub lists it on the check run unless it comes from a fork. */
  pullNumber: z.number().int().positive().nullable(),
});
type RerequestPayload = z.output<typeof rerequestSchema>;

/** check_run.rerequested (the Re-run button on the speedgate check): stored per check run, presser and conclusion. */
export function intakeRerequest(context: Context<"check_run.rerequested">): WorkRequest | string {
  const parsed = parsePayload(context, checkRunPayloadSchema);
  if (!parsed) return "the payload is not a check run the app can read";
  const { repo } = parsed;
  const { check_run: checkRun, sender, repository } = parsed.payload;
  if (checkRun.name !== CHECK_NAME) return `a re-run of another check (${checkRun.name})`;
  if (sender.type === "Bot") return "a bot pressed Re-run";
  const installationId = installationOf(context);
  if (installationId === null) return "the delivery names no installation";
  const listed = checkRun.pull_requests.find((pull) => pull.head.sha === checkRun.head_sha);
  const repositoryName = `${repo.owner}/${repo.repo}`;
  const payload: RerequestPayload = {
    installationId,
    repository,
    headSha: checkRun.head_sha,
    presser: sender.login,
    pullNumber: listed?.number ?? null,
  };
  return {
    task: "rescore-rerequest",
    payload,
    key: checkRunWorkKey(repositoryName, checkRun.id, "rerequested", sender.login, checkRun.completed_at ?? null),
    // Fork pull requests are not listed on the check run: the job finds it, then goes on on its lane.
    lane: listed ? pullRequestLane(repositoryName, listed.number) : null,
    deliveryId: context.id,
  };
}

/**
 * A rescore by whoever pressed Re-run, of the commit whose check they pressed, and only while that commit
 * is still the head: a push after the check was shown is code the presser has not seen.
 */
export function rescoreRerequestJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const opened = await openJob(deps, rerequestSchema, raw, job);
    if (!opened) return;
    const { payload, repo, client } = opened;
    if (payload.pullNumber === null) {
      const found = await findPullRequestForCommit(client, { ...repo, headSha: payload.headSha, headRepo: null, headBranch: null });
      if (!found) {
        job.log.info({ sha: payload.headSha }, "no open pull request has this commit as its head; nothing to rescore");
        return;
      }
      await job.submit({
        task: "rescore-rerequest",
        payload: { ...payload, pullNumber: found.number },
        key: `${job.key}:pr`,
        lane: pullRequestLane(`${repo.owner}/${repo.repo}`, found.number),
        deliveryId: job.deliveryId,
      });
      return;
    }
    const pull = await getPullRequest(client, { ...repo, pullNumber: payload.pullNumber });
    if (!pull) {
      job.log.info({ pull: payload.pullNumber }, "the pull request is gone; nothing to rescore");
      return;
    }
    const config = await loadRepoConfig(client, repo);
    if (!(await mayRescore(deps.roles, client, repo, payload.presser, config.ok ? config.config : null))) {
      await answerRefusal(deps, {
        ...repo,
        client,
        issueNumber: pull.number,
        actor: payload.presser,
        claimant: job.key,
        body:
          `The speedgate check was not re-run for ${payload.presser}: only people with ` +
          `${whoMayRescore(config.ok ? config.config : null)} on this repository may start scoring.`,
      });
      return;
    }
    if (!config.ok) return;
    const say = async (body: string): Promise<void> => {
      await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: pull.number, body });
    };
    if (pull.headSha !== payload.headSha) {
      await say(
        `The speedgate check of ${payload.headSha.slice(0, 12)} was not re-run: the head has moved on to ` +
          `${pull.headSha.slice(0, 12)}, which has its own check. Re-run that one, or comment \`/rescore ` +
          `${pull.headSha.slice(0, 12)}\`.`,
      );
      return;
    }
    const outcome = await startRescore({
      ...repo,
      client,
      config: config.config,
      defaultBranch: payload.repository.default_branch,
      pull,
      headSha: pull.headSha,
      appId: await deps.appId(),
      actor: payload.presser,
      dispatch: { sideEffects: deps.store.sideEffects, key: `dispatch:${job.key}` },
    });
    if (outcome.started === "uncertain") await say(describeUncertainDispatch(pull.headSha, outcome.reason));
    else if (!outcome.started) await say(outcome.refusal);
  };
}
