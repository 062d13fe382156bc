import type { GitHubClient, RepoRef } from "../../src/github/github-client.js";
import type { AppDeps } from "./app-deps.js";

export interface Refusal extends RepoRef {
  client: GitHubClient;
  issueNumber: number;
  actor: string;
  body: string;
  /** The comment that asked, for the reaction given instead of a second reply. */
  commentId?: number;
  /** The work answering: its own retry may still post the reply it took. */
  claimant?: string;
}

/**
 * Refusal replies one pull request (over all the people refused on it) and one repository get per
 * window: a hundred accounts each writing `/rescore` once get a few replies, not a hundred.
 */
export const MAX_REFUSAL_REPLIES_PER_PULL = 3;
export const MAX_REFUSAL_REPLIES_PER_REPOSITORY = 20;
/** 😕 reactions one pull request gets per window; after them, refusals are only logged. */
export const MAX_REFUSAL_REACTIONS_PER_PULL = 10;

/**
 * Tells someone their request was refused without letting them flood the pull request or spend the
 * installation's rate limit: one reply per person and pull request per window (bot/refusal-limiter.ts),
 * within a few per pull request and repository, then a 😕 reaction on each further comment (which
 * notifies nobody), within a cap too; past both, nothing is posted.
 */
export async function answerRefusal(deps: AppDeps, refusal: Refusal): Promise<"replied" | "reacted" | "silent"> {
  const { client, owner, repo } = refusal;
  const pull = `${owner}/${repo}#${refusal.issueNumber}`;
  const refusals = deps.store.refusals;
  if (
    (await refusals.allowReply(`${pull}:${refusal.actor.toLowerCase()}`, refusal.claimant)) &&
    (await refusals.allowWithin(`replies:${pull}`, MAX_REFUSAL_REPLIES_PER_PULL)) &&
    (await refusals.allowWithin(`replies:${owner}/${repo}`, MAX_REFUSAL_REPLIES_PER_REPOSITORY))
  ) {
    await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      owner,
      repo,
      issue_number: refusal.issueNumber,
      body: refusal.body,
    });
    return "replied";
  }
  if (refusal.commentId === undefined || !(await refusals.allowWithin(`reactions:${pull}`, MAX_REFUSAL_REACTIONS_PER_PULL)))
    return "silent";
  await client.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", {
    owner,
    repo,
    comment_id: refusal.commentId,
    content: "confused",
  });
  return "reacted";
}
