import type { Context } from "probot";
import { z } from "zod";
import { getPullRequest, toPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import { publishCheckRun } from "../../src/github/publish-check-run.js";
import { type AppDeps, failCheckOnConfig, loadRepoConfig, pullKey } from "./app-deps.js";
import { installationOf } from "./intake-delivery.js";
import { parsePayload, repositorySchema, userSchema } from "../payloads/parse-payload.js";
import { pullRequestInfoSchema } from "../payloads/pull-request-info-schema.js";
import { pullRequestPayloadSchema } from "../payloads/pull-request-payload.js";
import { mayRescore, startRescore, whoMayRescore } from "./start-rescore.js";
import { leaderboardLane, pullRequestLane, pullRequestWorkKey } from "../store/derive-work-key.js";
import type { JobContext, WorkRequest } from "../work/app-work.js";
import { openJob } from "./open-job.js";

type PullRequestContext = Context<"pull_request.opened" | "pull_request.synchronize" | "pull_request.reopened" | "pull_request.closed">;

const pullRequestJobSchema = z.object({
  installationId: z.number().int(),
  repository: repositorySchema,
  action: z.enum(["opened", "synchronize", "reopened"]),
  sender: userSchema("who opened, pushed to or reopened the pull request"),
  pull: pullRequestInfoSchema,
});

/**
 * pull_request opened, synchronize, reopened and closed. What GitHub says here is recorded at once (when
 * the head became the head, for judging a later /rescore; whether the pull request is open, for the
 * leaderboard); the check and any dispatch are the job's. A close only updates the leaderboard.
 */
export function intakePullRequest(deps: AppDeps) {
  return async (context: PullRequestContext): Promise<WorkRequest | string> => {
    const parsed = parsePayload(context, pullRequestPayloadSchema);
    if (!parsed) return "the payload is not a pull request the app can read";
    const installationId = installationOf(context);
    if (installationId === null) return "the delivery names no installation";
    const { repo, payload } = parsed;
    const pull = toPullRequest(payload.pull_request);
    if (!pull) return "the pull request has no number or head";
    const repository = `${repo.owner}/${repo.repo}`;
    const action = context.payload.action;
    const updatedAt = payload.pull_request.updated_at ?? null;
    const closed = action === "closed";
    await deps.store.history?.setPullState({ repository, number: pull.number, state: closed ? "closed" : "open", headSha: pull.headSha });
    const key = pullRequestWorkKey(repository, pull.number, action, pull.headSha, updatedAt);
    if (closed) {
      return {
        task: "leaderboard",
        payload: { installationId, owner: repo.owner, repo: repo.repo },
        key: `leaderboard:${key}`,
        lane: leaderboardLane(repository),
        deliveryId: context.id,
      };
    }
    // GitHub's clock when this commit became the head: what a later /rescore is compared with.
    if (updatedAt) await deps.store.heads.record(pullKey(repo, pull.number), pull.headSha, updatedAt);
    return {
      task: "pull-request",
      payload: { installationId, repository: payload.repository, action, sender: payload.sender, pull },
      key,
      lane: pullRequestLane(repository, pull.number),
      deliveryId: context.id,
    };
  };
}

/**
 * The new head gets a `speedgate` check that is not success, so a required check holds the merge until
 * that exact commit is scored. A commit a scored run already concluded keeps its verdict: another pull
 * request with the same head must not reset it. With `trigger: auto`, scoring starts for a pusher who may.
 */
export function pullRequestJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const opened = await openJob(deps, pullRequestJobSchema, raw, job);
    if (!opened) return;
    const { payload, repo, client } = opened;
    const { pull } = payload;
    const check = { ...repo, appId: await deps.appId(), headSha: pull.headSha, detailsUrl: pull.htmlUrl };
    const config = await loadRepoConfig(client, repo);
    if (!config.ok) {
      await failCheckOnConfig(client, check, config);
      return;
    }
    if (payload.action === "reopened" && config.config.leaderboard && deps.store.history) {
      await job.submit({
        task: "leaderboard",
        payload: { installationId: payload.installationId, owner: repo.owner, repo: repo.repo },
        key: `leaderboard:${job.key}`,
        lane: leaderboardLane(`${repo.owner}/${repo.repo}`),
        deliveryId: job.deliveryId,
      });
    }
    const waitForMaintainer = {
      ...check,
      title: "A maintainer must /rescore",
      summary:
        `This commit is not scored yet. Someone with ${whoMayRescore(config.config)} on this repository starts scoring by commenting ` +
        `\`/rescore\`.`,
      unlessConcluded: true,
    };
    if (config.config.trigger !== "auto") {
      await publishCheckRun(client, { ...waitForMaintainer, state: { status: "queued" } });
      return;
    }
    // A push is judged by whoever pushed it, not by the author of the pull request; a reopen runs
    // nobody's new code, so it is judged by the author, as the opening was.
    const actor = payload.action === "reopened" ? (pull.author ?? "") : payload.sender.login;
    const allowed = payload.sender.type !== "Bot" && actor !== "" && (await mayRescore(deps.roles, client, repo, actor, config.config));
    // A replayed or late delivery must not start a run of a commit that is no longer the head.
    const current = allowed ? await getPullRequest(client, { ...repo, pullNumber: pull.number }) : null;
    if (!allowed || !current || current.headSha !== pull.headSha) {
      if (allowed)
        job.log.info(
          { pull: pull.number, sha: pull.headSha },
          "the pull request's head has moved on since this delivery; nothing to start",
        );
      else await publishCheckRun(client, { ...waitForMaintainer, state: { status: "completed", conclusion: "action_required" } });
      return;
    }
    const outcome = await startRescore({
      ...repo,
      client,
      config: config.config,
      defaultBranch: payload.repository.default_branch,
      pull: current,
      headSha: current.headSha,
      appId: check.appId,
      actor,
      dispatch: { sideEffects: deps.store.sideEffects, key: `dispatch:${job.key}` },
    });
    if (!outcome.started) {
      await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...repo,
        issue_number: pull.number,
        body: outcome.refusal,
      });
    }
  };
}
