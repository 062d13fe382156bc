import { formatDispatchBinding } from "../src/github/dispatch-binding.js";
import { dispatchScoringWorkflow } from "../src/github/dispatch-scoring-workflow.js";
import type { PullRequestInfo } from "../src/github/find-pull-request-for-commit.js";
import { getCollaboratorRole } from "../src/github/get-collaborator-role.js";
import type { GitHubClient, RepoRef } from "../src/github/github-client.js";
import { publishCheckRun } from "../src/github/publish-check-run.js";
import { type RepoConfig, permissionReaches } from "../src/github/repo-config-schema.js";

export interface RescoreRequest extends RepoRef {
  client: GitHubClient;
  config: RepoConfig;
  defaultBranch: string;
  pull: PullRequestInfo;
  /** Who asked: their permission decides, whatever their author_association says. */
  actor: string;
  /** This app's id: only its own check runs are updated. */
  appId: number;
  /** Runs once the actor is allowed, before the dispatch (the 👀 reaction). */
  onAccepted?: () => Promise<void>;
}

export type RescoreOutcome = { started: true; runId: number | null } | { started: false; role: string };

export function whoMayRescore(config: RepoConfig): string {
  const lowest = config.rescore.permission;
  return lowest === "admin" ? "admin" : `${lowest} permission or higher`;
}

/**
 * Starts scoring of the pull request's head as it is now, for someone allowed to spend the GPU
 * runners on it: dispatches the scoring workflow from the default branch with that exact SHA and
 * queues the check on it, recording the dispatched run so its card can only land there.
 */
export async function startRescore(request: RescoreRequest): Promise<RescoreOutcome> {
  const { client, owner, repo, pull } = request;
  const role = await getCollaboratorRole(client, { owner, repo, username: request.actor });
  if (!permissionReaches(role, request.config.rescore.permission)) return { started: false, role };
  const headSha = pull.headSha;
  await request.onAccepted?.();
  const { runId, runUrl } = await dispatchScoringWorkflow(client, {
    owner,
    repo,
    workflow: request.config.workflow,
    ref: request.defaultBranch,
    pullRequest: pull.number,
    headSha,
  });
  await publishCheckRun(client, {
    owner,
    repo,
    appId: request.appId,
    headSha,
    state: { status: "queued" },
    title: "Scoring queued",
    summary: `Scoring of ${headSha.slice(0, 12)} was started by ${request.actor}${runUrl ? `: ${runUrl}` : "."}`,
    externalId: formatDispatchBinding({ pullRequest: pull.number, runId }),
    ...(runUrl ? { detailsUrl: runUrl } : {}),
  });
  return { started: true, runId };
}
