import type { GitHubClient, RepoRef } from "./github-client.js";

export interface DispatchScoringOptions extends RepoRef {
  workflow: string;
  ref: string;
  pullRequest: number;
  headSha: string;
  /** Turns Octokit's own retries off for this request: a 5xx is then the caller's to judge, never resent blindly. */
  noRetries?: boolean;
}

/**
 * Starts the scoring workflow from the default branch with the pull request and the exact SHA as
 * inputs: the workflow definition is the maintainers', the pull request's code only data to it.
 * Returns the run id when GitHub reports it (return_run_details), else null.
 */
export async function dispatchScoringWorkflow(client: GitHubClient, options: DispatchScoringOptions): Promise<{ runId: number | null; runUrl: string | null }> {
  const response = await client.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
    owner: options.owner,
    repo: options.repo,
    workflow_id: options.workflow,
    ref: options.ref,
    inputs: { pr: String(options.pullRequest), sha: options.headSha },
    return_run_details: true,
    ...(options.noRetries ? { request: { retries: 0 } } : {}),
  });
  const data = (response.data ?? {}) as { workflow_run_id?: unknown; html_url?: unknown };
  return {
    runId: typeof data.workflow_run_id === "number" ? data.workflow_run_id : null,
    runUrl: typeof data.html_url === "string" ? data.html_url : null,
  };
}
