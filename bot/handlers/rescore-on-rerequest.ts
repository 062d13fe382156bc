import type { Context } from "probot";
import { findPullRequestForCommit, getPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import { CHECK_NAME } from "../../src/github/publish-check-run.js";
import { answerRefusal } from "../answer-refusal.js";
import { type AppDeps, clientOf, loadRepoConfig, pullKey } from "../app-deps.js";
import { checkRunPayloadSchema } from "../payloads/check-run-payload.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { mayRescore, startRescore, whoMayRescore } from "../start-rescore.js";

/**
 * check_run.rerequested (the Re-run button on the speedgate check): a rescore by whoever pressed it,
 * of the commit whose check they pressed, and only while that commit is still the head: a push after
 * the check was shown is code the presser has not seen.
 */
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
    if (!(await mayRescore(client, repo, sender.login, config.ok ? config.config : null))) {
      await answerRefusal(deps, {
        ...repo,
        client,
        issueNumber: found.number,
        actor: sender.login,
        body: `The speedgate check was not re-run for ${sender.login}: only people with ${whoMayRescore(config.ok ? config.config : null)} on this repository may start scoring.`,
      });
      return;
    }
    if (!config.ok) return;
    await deps.queue.run(pullKey(repo, found.number), async () => {
      const pull = (await getPullRequest(client, { ...repo, pullNumber: found.number })) ?? found;
      if (pull.headSha !== checkRun.head_sha) {
        await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
          ...repo,
          issue_number: pull.number,
          body: `The speedgate check of ${checkRun.head_sha.slice(0, 12)} was not re-run: the head has moved on to ${pull.headSha.slice(0, 12)}, which has its own check. Re-run that one, or comment \`/rescore ${pull.headSha.slice(0, 12)}\`.`,
        });
        return;
      }
      const outcome = await startRescore({
        ...repo,
        client,
        config: config.config,
        defaultBranch: repository.default_branch,
        pull,
        headSha: pull.headSha,
        appId: await deps.appId(),
        actor: sender.login,
      });
      if (!outcome.started) {
        await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: pull.number, body: outcome.refusal });
      }
    });
  };
}
