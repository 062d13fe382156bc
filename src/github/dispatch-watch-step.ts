import type { GitHubClient, RepoRef } from "./github-client.js";

/** The run's title the watch workflow gives a step (`run-name:` with its `step` input): how the app knows a step's run. */
export function stepRunTitle(bisectionId: number, stepKey: string): string {
  return `speedgate bisection ${bisectionId} ${stepKey}`;
}

/** The bisection and step a run's title names, or null for a run that is not a step (a scheduled drift round). */
export function parseStepRunTitle(title: string): { bisectionId: number; stepKey: string } | null {
  const match = /\bspeedgate bisection (\d+) ((?:probe|parent)-\d+-\d+|range)\b/.exec(title);
  if (!match?.[1] || !match[2]) return null;
  return { bisectionId: Number(match[1]), stepKey: match[2] };
}

/**
 * The run's title of a merge's round under watch.everyMerge: the merge against its first parent, `round` counting the repeats
 * of a round whose interval straddled the bar (1 for the first).
 */
export function mergeRunTitle(sha: string, round: number): string {
  return `speedgate merge ${sha} ${round}`;
}

/** The merge and its round a run's title names, or null for a run that is not a merge's round. */
export function parseMergeRunTitle(title: string): { sha: string; round: number } | null {
  const match = /\bspeedgate merge ([0-9a-f]{40}(?:[0-9a-f]{24})?) (\d+)\b/.exec(title);
  if (!match?.[1] || !match[2]) return null;
  return { sha: match[1], round: Number(match[2]) };
}

/**
 * Starts one bisection step on the runners: the watch workflow from the default branch, with the step's
 * two commits and its name as inputs (docs/watching-main.md, examples/workflows/speedgate-watch.yml).
 * Octokit's own retries are off: a dispatch starts a GPU run, so one that may have been done is never sent
 * again blindly (the caller records it once, src/store/run-side-effect-once.ts).
 */
export async function dispatchWatchStep(
  client: GitHubClient,
  options: RepoRef & { workflow: string; ref: string; base: string; head: string; step: string },
): Promise<{ runId: number | null; runUrl: string | null }> {
  const response = await client.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
    owner: options.owner,
    repo: options.repo,
    workflow_id: options.workflow,
    ref: options.ref,
    inputs: { base: options.base, head: options.head, step: options.step },
    return_run_details: true,
    request: { retries: 0 },
  });
  const data = (response.data ?? {}) as { workflow_run_id?: unknown; html_url?: unknown };
  return {
    runId: typeof data.workflow_run_id === "number" ? data.workflow_run_id : null,
    runUrl: typeof data.html_url === "string" ? data.html_url : null,
  };
}
