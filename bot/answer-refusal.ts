import type { GitHubClient, RepoRef } from "../src/github/github-client.js";
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
 * Tells someone their request was refused without letting them flood the pull request: one reply per
 * person and pull request per window (bot/refusal-limiter.ts), then a 😕 reaction on each further
 * comment, which notifies nobody.
 */
export async function answerRefusal(deps: AppDeps, refusal: Refusal): Promise<"replied" | "reacted" | "silent"> {
  const { client, owner, repo } = refusal;
  if (await deps.store.refusals.allowReply(`${owner}/${repo}#${refusal.issueNumber}:${refusal.actor.toLowerCase()}`, refusal.claimant)) {
    await client.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner, repo, issue_number: refusal.issueNumber, body: refusal.body });
    return "replied";
  }
  if (refusal.commentId === undefined) return "silent";
  await client.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", { owner, repo, comment_id: refusal.commentId, content: "confused" });
  return "reacted";
}
