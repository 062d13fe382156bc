import { type GitHubClient, type RepoRef, statusOf } from "./github-client.js";

export interface DispatchScoringOptions extends RepoRef {
  workflow: string;
  ref: string;
  pullRequest: number;
  headSha: string;
  /** The pull request's base commit when the app knows it: the baseline of base/head scoring, pinned at the time of the dispatch. */
  baseSha?: string | null;
  /** Turns Octokit's own retries off for this request: a 5xx is then the caller's to judge, never resent blindly. */
  noRetries?: boolean;
}

/** GitHub's 422 for a workflow that does not declare an input it was sent: nothing was dispatched. */
function refusesInput(error: unknown, input: string): boolean {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : "";
  return status === 422 && /unexpected inputs/i.test(message) && message.includes(input);
}

/**
 * Starts the scoring workflow from the default branch with the pull request, the exact head SHA and
 * the base SHA as inputs: the workflow definition is the maintainers', the pull request's code only
 * data to it. A workflow written before base/head scoring declares only `pr` and `sha`; GitHub refuses
 * the whole dispatch for an undeclared input (422, nothing started), so it is sent again without
 * `base` and the action reads the base from the pull request. Returns the run id when GitHub reports it
 * (return_run_details), else null.
 */
export async function dispatchScoringWorkflow(
  client: GitHubClient,
  options: DispatchScoringOptions,
): Promise<{ runId: number | null; runUrl: string | null }> {
  const send = async (inputs: Record<string, string>) =>
    await client.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
      owner: options.owner,
      repo: options.repo,
      workflow_id: options.workflow,
      ref: options.ref,
      inputs,
      return_run_details: true,
      ...(options.noRetries ? { request: { retries: 0 } } : {}),
    });
  const inputs: Record<string, string> = { pr: String(options.pullRequest), sha: options.headSha };
  let response: Awaited<ReturnType<typeof send>>;
  if (options.baseSha) {
    try {
      response = await send({ ...inputs, base: options.baseSha });
    } catch (error) {
      if (!refusesInput(error, "base")) throw error;
      response = await send(inputs);
    }
  } else {
    response = await send(inputs);
  }
  const data = (response.data ?? {}) as { workflow_run_id?: unknown; html_url?: unknown };
  return {
    runId: typeof data.workflow_run_id === "number" ? data.workflow_run_id : null,
    runUrl: typeof data.html_url === "string" ? data.html_url : null,
  };
}
