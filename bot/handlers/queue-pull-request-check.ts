import type { Context } from "probot";
import { getPullRequest, toPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import { publishCheckRun } from "../../src/github/publish-check-run.js";
import { type AppDeps, clientOf, failCheckOnConfig, loadRepoConfig, pullKey } from "../app-deps.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { pullRequestPayloadSchema } from "../payloads/pull-request-payload.js";
import { mayRescore, startRescore, whoMayRescore } from "../start-rescore.js";

/**
 * pull_request opened, synchronize, reopened: the new head gets a `speedgate` check that is not
 * success, so a required check holds the merge until that exact commit is scored. A commit a scored
 * run already concluded keeps its verdict: another pull request with the same head must not reset it.
 */
export function queuePullRequestCheck(deps: AppDeps) {
  return async (context: Context<"pull_request.opened" | "pull_request.synchronize" | "pull_request.reopened">): Promise<void> => {
    const parsed = parsePayload(context, pullRequestPayloadSchema);
    if (!parsed) return;
    const { repo, payload } = parsed;
    const pull = toPullRequest(payload.pull_request);
    if (!pull) return;
    const key = pullKey(repo, pull.number);
    // GitHub's clock when this commit became the head: what a later /rescore is compared with.
    if (payload.pull_request.updated_at) await deps.heads.record(key, pull.headSha, payload.pull_request.updated_at);
    const client = clientOf(context);
    const check = { ...repo, appId: await deps.appId(), headSha: pull.headSha, detailsUrl: pull.htmlUrl };
    const config = await loadRepoConfig(context);
    await deps.queue.run(key, async () => {
      if (!config.ok) {
        await failCheckOnConfig(client, check, config.problems);
        return;
      }
      const waitForMaintainer = {
        ...check,
        title: "A maintainer must /rescore",
        summary: `This commit is not scored yet. Someone with ${whoMayRescore(config.config)} on this repository starts scoring by commenting \`/rescore\`.`,
        unlessConcluded: true,
      };
      if (config.config.trigger !== "auto") {
        await publishCheckRun(client, { ...waitForMaintainer, state: { status: "queued" } });
        return;
      }
      // A push is judged by whoever pushed it, not by the author of the pull request; a reopen runs
      // nobody's new code, so it is judged by the author, as the opening was.
      const actor = context.payload.action === "reopened" ? (pull.author ?? "") : payload.sender.login;
      const allowed = payload.sender.type !== "Bot" && actor !== "" && (await mayRescore(client, repo, actor, config.config));
      // A replayed or late delivery must not start a run of a commit that is no longer the head.
      const current = allowed ? await getPullRequest(client, { ...repo, pullNumber: pull.number }) : null;
      if (!allowed || !current || current.headSha !== pull.headSha) {
        if (allowed) context.log.info({ pull: pull.number, sha: pull.headSha }, "the pull request's head has moved on since this delivery; nothing to start");
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
      });
      if (!outcome.started) {
        await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: pull.number, body: outcome.refusal });
      }
    });
  };
}
