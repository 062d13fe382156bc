import type { Context } from "probot";
import { findHeadPushedAt, latestTime } from "../../src/github/find-head-pushed-at.js";
import { type PullRequestInfo, getPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { parseRescoreCommand } from "../../src/github/parse-rescore-command.js";
import { type AppDeps, clientOf, describeConfigProblems, loadRepoConfig, pullKey } from "../app-deps.js";
import { answerRefusal } from "../answer-refusal.js";
import { parsePayload } from "../payloads/parse-payload.js";
import { issueCommentPayloadSchema } from "../payloads/issue-comment-payload.js";
import { mayRescore, startRescore, whoMayRescore } from "../start-rescore.js";

const short = (sha: string): string => sha.slice(0, 12);

/**
 * The commit a `/rescore` approves: the one named in it, or the head as it was when the comment was
 * written. GitHub's clock decides the second: the comment's created_at against when the head became
 * the head (the repository activity API, and the pull_request deliveries the app recorded). A head
 * pushed after the comment was not seen by whoever wrote it, so it is refused, saying how to approve it.
 */
async function approvedCommit(
  deps: AppDeps,
  client: GitHubClient,
  repo: RepoRef,
  pull: PullRequestInfo,
  command: { sha: string | null; writtenAt: string },
): Promise<{ sha: string; why: string } | { refusal: string }> {
  const head = pull.headSha;
  const named = `\`/rescore ${short(head)}\``;
  if (command.sha !== null) {
    if (head.startsWith(command.sha)) return { sha: head, why: "the commit you named" };
    return { refusal: `\`/rescore ${command.sha}\` names a commit that is not the head of this pull request (the head is ${short(head)}); nothing was started. To score the head, comment ${named}.` };
  }
  const pushedAt = latestTime([await findHeadPushedAt(client, pull), await deps.heads.lookup(pullKey(repo, pull.number), head)]);
  if (pushedAt === null) {
    return { refusal: `\`/rescore\` was not run: GitHub has no record the app can read of when ${short(head)} became the head, so it cannot tell whether you saw it. Comment ${named} to score exactly that commit.` };
  }
  if (Date.parse(pushedAt) >= Date.parse(command.writtenAt)) {
    return { refusal: `\`/rescore\` was not run: the head moved to ${short(head)} at ${pushedAt}, after your comment (${command.writtenAt}), so it is not the code you approved. Comment ${named} to score it.` };
  }
  return { sha: head, why: "the head when you commented" };
}

/** issue_comment.created: `/rescore` opening a pull request comment, from a person allowed to start a run. */
export function rescoreOnComment(deps: AppDeps) {
  return async (context: Context<"issue_comment.created">): Promise<void> => {
    const parsed = parsePayload(context, issueCommentPayloadSchema);
    if (!parsed) return;
    const { repo } = parsed;
    const { comment, issue, repository } = parsed.payload;
    const command = parseRescoreCommand(comment.body);
    if (!command) return;
    // Bots, this app included, never start a run: a card or a reply quoting the command must not loop.
    const user = comment.user;
    if (user.type === "Bot" || user.login.endsWith("[bot]") || context.isBot) return;
    if (!issue.pull_request) return;
    const age = deps.now() - Date.parse(comment.created_at);
    if (age > deps.commandMaxAgeMs) {
      context.log.info(
        { delivery: context.id, comment: comment.id, ageMs: age },
        `ignoring /rescore in comment ${comment.id}: written ${Math.round(age / 60_000)} min ago, over the ${Math.round(deps.commandMaxAgeMs / 60_000)} min a command stays valid`,
      );
      return;
    }
    const client = clientOf(context);
    const reply = async (body: string): Promise<void> => {
      await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: issue.number, body });
    };
    const config = await loadRepoConfig(context);
    // Permission first: nothing about the config, the head or the run is said to someone who may not start one.
    if (!(await mayRescore(client, repo, user.login, config.ok ? config.config : null))) {
      await answerRefusal(deps, {
        ...repo,
        client,
        issueNumber: issue.number,
        actor: user.login,
        commentId: comment.id,
        body: `\`/rescore\` was not run: only people with ${whoMayRescore(config.ok ? config.config : null)} on this repository may start scoring.`,
      });
      return;
    }
    if (!config.ok) {
      await reply(describeConfigProblems(config.problems));
      return;
    }
    await deps.queue.run(pullKey(repo, issue.number), async () => {
      const pull = await getPullRequest(client, { ...repo, pullNumber: issue.number });
      if (!pull) return;
      const approved = await approvedCommit(deps, client, repo, pull, { sha: command.sha, writtenAt: comment.created_at });
      if ("refusal" in approved) {
        await reply(approved.refusal);
        return;
      }
      const outcome = await startRescore({
        ...repo,
        client,
        config: config.config,
        defaultBranch: repository.default_branch,
        pull,
        headSha: approved.sha,
        appId: await deps.appId(),
        actor: user.login,
        onAccepted: async () => {
          await client.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", { ...repo, comment_id: comment.id, content: "eyes" });
        },
      });
      if (!outcome.started) {
        await reply(outcome.refusal);
        return;
      }
      await reply(`Scoring ${approved.sha} (${approved.why})${outcome.runUrl ? `: ${outcome.runUrl}` : "."}`);
    });
  };
}
