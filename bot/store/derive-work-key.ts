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
 * check_run.rerequested and check_run.requested_action: the check run and what was asked of it. A
 * check can be re-run again once it concluded again, so its conclusion time is part of the key: the
 * same click replayed is one job, a click after the next conclusion is another.
 */
export function checkRunWorkKey(repository: string, checkRunId: number, requested: string, concludedAt: string | null): string {
  return `check-run:${repository.toLowerCase()}:${checkRunId}:${requested}:${concludedAt ?? "running"}`;
}

/** pull_request.opened/synchronize/reopened: the same head pushed again asks for nothing new. */
export function pullRequestWorkKey(repository: string, pullNumber: number, action: string, headSha: string): string {
  return `pull:${repository.toLowerCase()}#${pullNumber}:${action}:${headSha}`;
}
