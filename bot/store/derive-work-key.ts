/*
 * The durable identity of each delivery's work: what the payload identifies, never the delivery id
 * (GitHub's redelivery and a replayed capture carry a new one). speedgate.work_receipts keeps each key
 * once, ever, so the same comment, run attempt or re-run click is worked on once. Repository names are
 * lower-cased: GitHub's are case-insensitive.
 */

/** `owner/repo#12`: a pull request's work runs one job at a time, in the order stored. */
export function pullRequestLane(repository: string, pullNumber: number): string {
  return `${repository.toLowerCase()}#${pullNumber}`;
}

/** issue_comment.created (`/rescore`): the comment is the command; an edit does not repeat it. */
export function commentWorkKey(repository: string, commentId: number): string {
  return `comment:${repository.toLowerCase()}:${commentId}`;
}

/** workflow_run.completed: each attempt of a run has its own card (a re-run is a new attempt). */
export function workflowRunWorkKey(repository: string, runId: number, runAttempt: number): string {
  return `run:${repository.toLowerCase()}:${runId}:${runAttempt}`;
}

/**
 * check_run.rerequested: the check run, what was asked of it and who pressed (#12: each presser's
 * permission is judged once per check run). A check can be re-run again once it concluded again, so its
 * conclusion time is part of the key: the same click replayed is one job, a click after the next
 * conclusion is another.
 */
export function checkRunWorkKey(
  repository: string,
  checkRunId: number,
  requested: string,
  presser: string,
  concludedAt: string | null,
): string {
  return `check-run:${repository.toLowerCase()}:${checkRunId}:${requested}:${presser.toLowerCase()}:${concludedAt ?? "running"}`;
}

/**
 * pull_request events: the action, the head and GitHub's updated_at at that moment (#12's key): a
 * replay is one job, while a head pushed back later (A, B, A again) is new work.
 */
export function pullRequestWorkKey(
  repository: string,
  pullNumber: number,
  action: string,
  headSha: string,
  updatedAt: string | null,
): string {
  return `pull:${repository.toLowerCase()}#${pullNumber}:${action}:${headSha}:${updatedAt ?? "?"}`;
}

/** The lane of a repository's leaderboard issue: one update at a time, so the issue is opened once. */
export function leaderboardLane(repository: string): string {
  return `${repository.toLowerCase()}#leaderboard`;
}

/** The lane of a repository's main: the watch's cards and its bisection's steps, one at a time, so one bisection starts. */
export function mainLane(repository: string): string {
  return `${repository.toLowerCase()}#main`;
}
