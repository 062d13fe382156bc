import { parseDispatchBinding, parseRunTitle } from "../src/github/dispatch-binding.js";
import { type PullRequestInfo, findPullRequestForCommit, getPullRequest } from "../src/github/find-pull-request-for-commit.js";
import type { GitHubClient, RepoRef } from "../src/github/github-client.js";
import { listCheckRuns } from "../src/github/publish-check-run.js";

export interface RunInfo {
  id: number;
  event: string;
  headSha: string;
  headBranch: string | null;
  headRepo: string | null;
  title: string;
}

export interface RunTarget {
  pull: PullRequestInfo;
  /** The commit the run scored: the check goes there. */
  headSha: string;
  /** The external id of the check the app queued for this run, when it dispatched it. */
  externalId: string | undefined;
  /**
   * Whether the run's workflow definition and inputs came from people with write access: a run the
   * app dispatched from the default branch, or a pull_request run of a branch in this repository.
   * A fork's pull_request run executes the fork's own workflow and config, so its card proves nothing.
   */
  trusted: boolean;
}

/**
 * The pull request a finished scoring run belongs to, decided by GitHub's data only. A run started by
 * a pull request event is matched on its head SHA and head repository. A run the app dispatched runs
 * on the default branch: its title names a SHA, and the app's own check run on that SHA must carry
 * this run's id, which only the app could have written.
 */
export async function resolveRunTarget(client: GitHubClient, repo: RepoRef, run: RunInfo, appId: number): Promise<RunTarget | null> {
  if (run.event === "workflow_dispatch") {
    const hint = parseRunTitle(run.title);
    if (!hint) return null;
    const checks = await listCheckRuns(client, { ...repo, headSha: hint.headSha, appId });
    // GitHub versions without return_run_details give no run id: the app's binding then names the pull
    // request only, and the dispatched run (only writers can dispatch) is matched by the SHA in its title.
    const bound =
      checks.find((check) => parseDispatchBinding(check.externalId)?.runId === run.id) ??
      checks.find((check) => check.status !== "completed" && parseDispatchBinding(check.externalId)?.runId === null);
    const binding = parseDispatchBinding(bound?.externalId ?? null);
    if (!bound?.externalId || !binding) return null;
    const pull = await getPullRequest(client, { ...repo, pullNumber: binding.pullRequest });
    if (!pull) return null;
    return { pull, headSha: hint.headSha, externalId: bound.externalId, trusted: true };
  }
  const pull = await findPullRequestForCommit(client, {
    ...repo,
    headSha: run.headSha,
    headRepo: run.headRepo,
    headBranch: run.headBranch,
  });
  if (!pull) return null;
  const sameRepository = run.headRepo !== null && run.headRepo.toLowerCase() === `${repo.owner}/${repo.repo}`.toLowerCase();
  return { pull, headSha: run.headSha, externalId: undefined, trusted: sameRepository };
}
