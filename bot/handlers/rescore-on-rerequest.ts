import type { Context } from "probot";
import { findPullRequestForCommit, getPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import { CHECK_NAME } from "../../src/github/publish-check-run.js";
import { type AppDeps, clientOf, loadRepoConfig } from "../app-deps.js";
import { checkRunPayloadSchema } from "../payloads/check-run-payload.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { startRescore, whoMayRescore } from "../start-rescore.js";

/** check_run.rerequested (the Re-run button on the speedgate check): a rescore by whoever pressed it. */
export function rescoreOnRerequest(deps: AppDeps) {
  return async (context: Context<"check_run.rerequested">): Promise<void> => {
    const parsed = parsePayload(context, checkRunPayloadSchema);
    if (!parsed) return;
    const { repo } = parsed;
    const { check_run: checkRun, sender, repository } = parsed.payload;
    if (checkRun.name !== CHECK_NAME || sender.type === "Bot") return;
    const client = clientOf(context);
    const listed = checkRun.pull_requests.find((pull) => pull.head.sha === checkRun.head_sha);
    // Fork pull requests are not listed on the check run; find the one whose head is this commit.
    const found = listed
      ? await getPullRequest(client, { ...repo, pullNumber: listed.number })
      : await findPullRequestForCommit(client, { ...repo, headSha: checkRun.head_sha, headRepo: null, headBranch: null });
    if (!found) {
      context.log.info({ sha: checkRun.head_sha }, "no open pull request has this commit as its head; nothing to rescore");
      return;
    }
    const config = await loadRepoConfig(context);
    if (!config.ok) return;
    await deps.queue.run(`${repo.owner}/${repo.repo}#${found.number}`, async () => {
      // Bind to the head as it is now, not to the commit the old check was on.
      const pull = (await getPullRequest(client, { ...repo, pullNumber: found.number })) ?? found;
      const outcome = await startRescore({
        ...repo,
        client,
        config: config.config,
        defaultBranch: repository.default_branch,
        pull,
        appId: await deps.appId(),
        actor: sender.login,
      });
      if (!outcome.started) {
        await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
          ...repo,
          issue_number: pull.number,
          body: `The speedgate check was not re-run for ${sender.login}: only people with ${whoMayRescore(config.config)} on this repository may start scoring.`,
        });
      }
    });
  };
}
