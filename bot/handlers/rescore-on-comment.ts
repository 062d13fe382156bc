import type { Context } from "probot";
import { z } from "zod";
import { findHeadPushedAt, latestTime } from "../../src/github/find-head-pushed-at.js";
import { type PullRequestInfo, getPullRequest } from "../../src/github/find-pull-request-for-commit.js";
import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import { parseRescoreCommand } from "../../src/github/parse-rescore-command.js";
import { DEFAULT_REPO_CONFIG, LOWEST_RESCORE_PERMISSION, permissionReaches } from "../../src/github/repo-config-schema.js";
import { type AppDeps, describeConfigProblems, loadRepoConfig, pullKey } from "./app-deps.js";
import { answerRefusal } from "./answer-refusal.js";
import { installationOf } from "./intake-delivery.js";
import { parsePayload, repositorySchema } from "../payloads/parse-payload.js";
import { issueCommentPayloadSchema } from "../payloads/issue-comment-payload.js";
import { describeUncertainDispatch, startRescore, whoMayRescore } from "./start-rescore.js";
import { outsiderByAssociation } from "../outsider-by-association.js";
import { commentWorkKey, pullRequestLane } from "../store/derive-work-key.js";
import type { JobContext, WorkRequest } from "../work/app-work.js";
import { openJob } from "./open-job.js";

const short = (sha: string): string => sha.slice(0, 12);

const rescoreCommentSchema = z.object({
  installationId: z.number().int(),
  repository: repositorySchema,
  issueNumber: z.number().int().positive(),
  commentId: z.number().int(),
  writtenAt: z.string(),
  login: z.string(),
  sha: z.string().nullable(),
  /** The payload alone shows the author has no permission (bot/outsider-by-association.ts); absent in jobs stored before. */
  outsider: z.boolean().default(false),
});

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
    return {
      refusal:
        `\`/rescore ${command.sha}\` names a commit that is not the head of this pull request (the head is ${short(head)}); nothing ` +
        `was started. To score the head, comment ${named}.`,
    };
  }
  const pushedAt = latestTime([await findHeadPushedAt(client, pull), await deps.store.heads.lookup(pullKey(repo, pull.number), head)]);
  if (pushedAt === null) {
    return {
      refusal:
        `\`/rescore\` was not run: GitHub has no record the app can read of when ${short(head)} became the head, so it cannot tell ` +
        `whether you saw it. Comment ${named} to score exactly that commit.`,
    };
  }
  if (Date.parse(pushedAt) >= Date.parse(command.writtenAt)) {
    return {
      refusal:
        `\`/rescore\` was not run: the head moved to ${short(head)} at ${pushedAt}, after your comment (${command.writtenAt}), so it ` +
        `is not the code you approved. Comment ${named} to score it.`,
    };
  }
  const before = Date.parse(command.writtenAt) - Date.parse(pushedAt);
  // The approval is bound to the head at comment time, not to what the approver reviewed: a push just
  // before the comment is what runs. Said in the reply, with the way to be exact.
  const recent =
    before < RECENT_HEAD_MS
      ? `; if you reviewed an earlier commit, that is not what runs: \`/rescore <sha>\` approves exactly the commit it names`
      : "";
  return { sha: head, why: `the head when you commented: it became the head ${describeInterval(before)} before your comment${recent}` };
}

/** A head that arrived this shortly before the `/rescore` may not be the commit its writer reviewed. */
const RECENT_HEAD_MS = 10 * 60_000;

function describeInterval(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

/**
 * issue_comment.created: `/rescore` opening a pull request comment. A command is judged old (a replay)
 * by its comment's created_at against when GitHub first sent the delivery: the moment it is received,
 * or for a delivery the app asked GitHub to send again after an outage, that first attempt. So a job
 * retried later, or a delivery redelivered after downtime, is not dropped for the time it waited.
 */
export function intakeComment(deps: AppDeps) {
  return async (context: Context<"issue_comment.created">): Promise<WorkRequest | string> => {
    const parsed = parsePayload(context, issueCommentPayloadSchema);
    if (!parsed) return "the payload is not a comment the app can read";
    const { repo } = parsed;
    const { comment, issue, repository } = parsed.payload;
    const command = parseRescoreCommand(comment.body);
    if (!command) return "not a /rescore command";
    // Bots, this app included, never start a run: a card or a reply quoting the command must not loop.
    const user = comment.user;
    if (user.type === "Bot" || user.login.endsWith("[bot]") || context.isBot) return "a bot's comment";
    if (!issue.pull_request) return "a comment on an issue, not a pull request";
    const installationId = installationOf(context);
    if (installationId === null) return "the delivery names no installation";
    const sentAt = (await deps.store.firstDeliveredAt(context.id)) ?? deps.now();
    const age = sentAt - Date.parse(comment.created_at);
    if (age > deps.commandMaxAgeMs) {
      context.log.info(
        { delivery: context.id, comment: comment.id, ageMs: age },
        `ignoring /rescore in comment ${comment.id}: written ${Math.round(age / 60_000)} min before GitHub sent it, over the ` +
          `${Math.round(deps.commandMaxAgeMs / 60_000)} min a command stays valid`,
      );
      return "a /rescore older than a command stays valid";
    }
    return {
      task: "rescore-comment",
      payload: {
        installationId,
        repository,
        issueNumber: issue.number,
        commentId: comment.id,
        writtenAt: comment.created_at,
        login: user.login,
        sha: command.sha,
        outsider: outsiderByAssociation(repository.owner.type, comment.author_association),
      },
      key: commentWorkKey(`${repo.owner}/${repo.repo}`, comment.id),
      lane: pullRequestLane(`${repo.owner}/${repo.repo}`, issue.number),
      deliveryId: context.id,
    };
  };
}

/** A `/rescore` from a person allowed to start a run, on its pull request's lane. */
export function rescoreCommentJob(deps: AppDeps) {
  return async (raw: unknown, job: JobContext): Promise<void> => {
    const opened = await openJob(deps, rescoreCommentSchema, raw, job);
    if (!opened) return;
    const { payload, repo, client } = opened;
    const reply = async (body: string): Promise<void> => {
      await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...repo,
        issue_number: payload.issueNumber,
        body,
      });
    };
    const refuse = async (body: string): Promise<void> => {
      const answered = await answerRefusal(deps, {
        ...repo,
        client,
        issueNumber: payload.issueNumber,
        actor: payload.login,
        commentId: payload.commentId,
        claimant: job.key,
        body,
      });
      if (answered === "silent")
        job.log.info(
          `/rescore by ${payload.login} in comment ${payload.commentId} refused without a reply or reaction: this pull request had ` +
            `its share of them this hour`,
        );
    };
    // Permission first: nothing about the config, the head or the run is said to someone who may not
    // start one, and a drive-by costs as few API calls as can be: none from the payload alone, else the
    // permission (no config: a role below the lowest bar any config may set is refused whatever it says).
    if (payload.outsider) {
      await refuse("`/rescore` was not run: only the repository's owner and its collaborators may start scoring.");
      return;
    }
    const role = await deps.roles.read(client, repo, payload.login);
    if (!permissionReaches(role, LOWEST_RESCORE_PERMISSION)) {
      await refuse(`\`/rescore\` was not run: only people with ${whoMayRescore(null)} on this repository may start scoring.`);
      return;
    }
    const config = await loadRepoConfig(client, repo);
    if (!permissionReaches(role, (config.ok ? config.config : DEFAULT_REPO_CONFIG).rescore.permission)) {
      await refuse(
        `\`/rescore\` was not run: only people with ${whoMayRescore(config.ok ? config.config : null)} on this repository may start ` +
          `scoring.`,
      );
      return;
    }
    if (!config.ok) {
      await reply(describeConfigProblems(config));
      return;
    }
    const pull = await getPullRequest(client, { ...repo, pullNumber: payload.issueNumber });
    if (!pull) return;
    const approved = await approvedCommit(deps, client, repo, pull, { sha: payload.sha, writtenAt: payload.writtenAt });
    if ("refusal" in approved) {
      await reply(approved.refusal);
      return;
    }
    const outcome = await startRescore({
      ...repo,
      client,
      config: config.config,
      defaultBranch: payload.repository.default_branch,
      pull,
      headSha: approved.sha,
      appId: await deps.appId(),
      actor: payload.login,
      onAccepted: async () => {
        await client.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", {
          ...repo,
          comment_id: payload.commentId,
          content: "eyes",
        });
      },
      dispatch: { sideEffects: deps.store.sideEffects, key: `dispatch:${job.key}` },
    });
    if (outcome.started === "uncertain") {
      await reply(describeUncertainDispatch(approved.sha, outcome.reason));
      return;
    }
    if (!outcome.started) {
      await reply(outcome.refusal);
      return;
    }
    await reply(`Scoring ${approved.sha} (${approved.why})${outcome.runUrl ? `: ${outcome.runUrl}` : "."}`);
  };
}
