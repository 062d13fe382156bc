import { formatDispatchBinding } from "../src/github/dispatch-binding.js";
import { dispatchScoringWorkflow } from "../src/github/dispatch-scoring-workflow.js";
import type { PullRequestInfo } from "../src/github/find-pull-request-for-commit.js";
import { getCollaboratorRole } from "../src/github/get-collaborator-role.js";
import { type GitHubClient, type RepoRef, statusOf } from "../src/github/github-client.js";
import { publishCheckRun } from "../src/github/publish-check-run.js";
import { DEFAULT_REPO_CONFIG, type PermissionLevel, type RepoConfig, permissionReaches } from "../src/github/repo-config-schema.js";
import { CONFIG_FILE } from "./app-deps.js";

export interface RescoreRequest extends RepoRef {
  client: GitHubClient;
  config: RepoConfig;
  defaultBranch: string;
  pull: PullRequestInfo;
  /** The exact commit to score: the one the person who asked saw. */
  headSha: string;
  /** Who asked; named on the check. */
  actor: string;
  /** This app's id: only its own check runs are updated. */
  appId: number;
  /** Runs before the dispatch (the 👀 reaction). */
  onAccepted?: () => Promise<void>;
}

export type RescoreOutcome = { started: true; runId: number | null; runUrl: string | null } | { started: false; refusal: string };

export function whoMayRescore(config: RepoConfig | null): string {
  const lowest = (config ?? DEFAULT_REPO_CONFIG).rescore.permission;
  return lowest === "admin" ? "admin" : `${lowest} permission or higher`;
}

/**
 * Whether `actor` may spend the GPU runners, by the collaborator permission endpoint. With an invalid
 * config the default bar applies: the file's own bar cannot be trusted, and its problems are told
 * only to people who pass it.
 */
export async function mayRescore(client: GitHubClient, repo: RepoRef, actor: string, config: RepoConfig | null): Promise<boolean> {
  const lowest: PermissionLevel = (config ?? DEFAULT_REPO_CONFIG).rescore.permission;
  return permissionReaches(await getCollaboratorRole(client, { ...repo, username: actor }), lowest);
}

/** GitHub's answer to a dispatch that cannot work as configured, in the words of what to fix. */
function describeRefusedDispatch(status: number, message: string, workflow: string, ref: string): string {
  const where = `\`.github/workflows/${workflow}\` on \`${ref}\``;
  const fix =
    status === 404
      ? `there is no such workflow. Set \`workflow:\` in \`.github/${CONFIG_FILE}\` on the default branch to the scoring workflow's file name.`
      : `the workflow must run on \`workflow_dispatch\` with the inputs \`pr\` and \`sha\` (see examples/workflows/speedgate-fork-safe.yml).`;
  return `The scoring workflow could not be started: GitHub answered ${status} (${message.split("\n")[0] ?? ""}) for ${where}: ${fix}`;
}

/**
 * Starts scoring of exactly `headSha`: dispatches the scoring workflow from the default branch with
 * that SHA and queues the check on it, recording the dispatched run so its card can only land there.
 * A dispatch GitHub refuses (no such workflow, no workflow_dispatch trigger) fails the check saying
 * so, and the caller says it on the pull request.
 */
export async function startRescore(request: RescoreRequest): Promise<RescoreOutcome> {
  const { client, owner, repo, pull, headSha } = request;
  await request.onAccepted?.();
  let dispatched: { runId: number | null; runUrl: string | null };
  try {
    dispatched = await dispatchScoringWorkflow(client, {
      owner,
      repo,
      workflow: request.config.workflow,
      ref: request.defaultBranch,
      pullRequest: pull.number,
      headSha,
    });
  } catch (error) {
    const status = statusOf(error);
    if (status !== 403 && status !== 404 && status !== 422) throw error;
    const refusal = describeRefusedDispatch(status, error instanceof Error ? error.message : "", request.config.workflow, request.defaultBranch);
    await publishCheckRun(client, {
      owner,
      repo,
      appId: request.appId,
      headSha,
      state: { status: "completed", conclusion: "failure" },
      title: "The scoring workflow could not be started",
      summary: refusal,
      ...(pull.htmlUrl ? { detailsUrl: pull.htmlUrl } : {}),
    });
    return { started: false, refusal };
  }
  const { runId, runUrl } = dispatched;
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
  return { started: true, runId, runUrl };
}
