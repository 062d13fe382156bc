import type { Context } from "probot";
import { getPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import { type AppDeps, clientOf, describeConfigProblems, loadRepoConfig } from "../app-deps.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { issueCommentPayloadSchema } from "../payloads/issue-comment-payload.js";
import { startRescore, whoMayRescore } from "../start-rescore.js";

export const RESCORE_COMMAND = /^\/rescore(\s|$)/;

/** issue_comment.created: `/rescore` on a pull request's first line, from a person allowed to start a run. */
export function rescoreOnComment(deps: AppDeps) {
  return async (context: Context<"issue_comment.created">): Promise<void> => {
    const parsed = parsePayload(context, issueCommentPayloadSchema);
    if (!parsed) return;
    const { repo } = parsed;
    const { comment, issue, repository } = parsed.payload;
    const firstLine = comment.body.split(/\r?\n/, 1)[0] ?? "";
    if (!RESCORE_COMMAND.test(firstLine.trim())) return;
    // Bots, this app included, never start a run: a card or a reply quoting the command must not loop.
    const user = comment.user;
    if (user.type === "Bot" || user.login.endsWith("[bot]") || context.isBot) return;
    if (!issue.pull_request) return;
    const client = clientOf(context);
    const reply = async (body: string): Promise<void> => {
      await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: issue.number, body });
    };
    const config = await loadRepoConfig(context);
    if (!config.ok) {
      await reply(describeConfigProblems(config.problems));
      return;
    }
    await deps.queue.run(`${repo.owner}/${repo.repo}#${issue.number}`, async () => {
      const pull = await getPullRequest(client, { ...repo, pullNumber: issue.number });
      if (!pull) return;
      const outcome = await startRescore({
        ...repo,
        client,
        config: config.config,
        defaultBranch: repository.default_branch,
        pull,
        appId: await deps.appId(),
        actor: user.login,
        onAccepted: async () => {
          await client.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", {
            ...repo,
            comment_id: comment.id,
            content: "eyes",
          });
        },
      });
      if (!outcome.started) {
        await reply(`\`/rescore\` was not run: only people with ${whoMayRescore(config.config)} on this repository may start scoring.`);
      }
    });
  };
}
