import type { Context } from "probot";
import { toPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import { publishCheckRun } from "../../src/github/publish-check-run.js";
import { type AppDeps, clientOf, failCheckOnConfig, loadRepoConfig } from "../app-deps.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { pullRequestPayloadSchema } from "../payloads/pull-request-payload.js";
import { startRescore, whoMayRescore } from "../start-rescore.js";

/**
 * pull_request opened, synchronize, reopened: the new head gets a `speedgate` check that is not
 * success, so a required check holds the merge until that exact commit is scored.
 */
export function queuePullRequestCheck(deps: AppDeps) {
  return async (context: Context<"pull_request.opened" | "pull_request.synchronize" | "pull_request.reopened">): Promise<void> => {
    const parsed = parsePayload(context, pullRequestPayloadSchema);
    if (!parsed) return;
    const { repo } = parsed;
    const pull = toPullRequest(parsed.payload.pull_request);
    if (!pull) return;
    const client = clientOf(context);
    const check = { ...repo, appId: await deps.appId(), headSha: pull.headSha, detailsUrl: pull.htmlUrl };
    const config = await loadRepoConfig(context);
    await deps.queue.run(`${repo.owner}/${repo.repo}#${pull.number}`, async () => {
      if (!config.ok) {
        await failCheckOnConfig(client, check, config.problems);
        return;
      }
      const waitForMaintainer = {
        ...check,
        title: "A maintainer must /rescore",
        summary: `This commit is not scored yet. Someone with ${whoMayRescore(config.config)} on this repository starts scoring by commenting \`/rescore\`.`,
      };
      if (config.config.trigger !== "auto") {
        await publishCheckRun(client, { ...waitForMaintainer, state: { status: "queued" } });
        return;
      }
      const outcome = await startRescore({
        ...repo,
        client,
        config: config.config,
        defaultBranch: parsed.payload.repository.default_branch,
        pull,
        appId: check.appId,
        actor: pull.author ?? "",
      });
      if (!outcome.started) {
        await publishCheckRun(client, { ...waitForMaintainer, state: { status: "completed", conclusion: "action_required" } });
      }
    });
  };
}
