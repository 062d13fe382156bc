import { formatDispatchBinding } from "../../src/github/dispatch-binding.js";
import { dispatchScoringWorkflow } from "../../src/github/dispatch-scoring-workflow.js";
import type { PullRequestInfo } from "../../src/github/find-pull-request-for-commit.js";
import type { CollaboratorRoleCache } from "../collaborator-role-cache.js";
import { type GitHubClient, type RepoRef, statusOf } from "../../src/github/github-client.js";
import { publishCheckRun } from "../../src/github/publish-check-run.js";
import { DEFAULT_REPO_CONFIG, type PermissionLevel, type RepoConfig, permissionReaches } from "../../src/github/repo-config-schema.js";
import { isDefiniteRefusal } from "../../src/github/is-definite-refusal.js";
import { APP_CONFIG_PATH } from "../read-repo-config.js";
import type { SideEffectOutcome } from "../../src/store/run-side-effect-once.js";
import type { SideEffects } from "../store/app-store.js";

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
  /**
   * The dispatch is recorded under `key` before it is sent (src/store/run-side-effect-once.ts): a retry of
   * the same work after a crash never starts a second GPU run.
   */
  dispatch: { sideEffects: SideEffects; key: string };
}

export type RescoreOutcome =
  | { started: true; runId: number | null; runUrl: string | null }
  | { started: false; refusal: string }
  /** An earlier attempt may have dispatched it: nothing is sent again, and the people are told. */
  | { started: "uncertain"; reason: string };

export function whoMayRescore(config: RepoConfig | null): string {
  const lowest = (config ?? DEFAULT_REPO_CONFIG).rescore.permission;
  return lowest === "admin" ? "admin" : `${lowest} permission or higher`;
}

/**
 * Whether `actor` may spend the GPU runners, by the collaborator permission endpoint. With an invalid
 * config the default bar applies: the file's own bar cannot be trusted, and its problems are told
 * only to people who pass it.
 */
export async function mayRescore(
  roles: CollaboratorRoleCache,
  client: GitHubClient,
  repo: RepoRef,
  actor: string,
  config: RepoConfig | null,
): Promise<boolean> {
  const lowest: PermissionLevel = (config ?? DEFAULT_REPO_CONFIG).rescore.permission;
  return permissionReaches(await roles.read(client, repo, actor), lowest);
}

/** GitHub's answer to a dispatch that cannot work as configured, in the words of what to fix. */
function describeRefusedDispatch(status: number, message: string, workflow: string, ref: string): string {
  const where = `\`.github/workflows/${workflow}\` on \`${ref}\``;
  const fix =
    status === 404
      ? `there is no such workflow. Set \`workflow:\` in \`${APP_CONFIG_PATH}\` on the default branch to the scoring workflow's file name.`
      : `the workflow must run on \`workflow_dispatch\` with the inputs \`pr\` and \`sha\`, and optionally \`base\` (see ` +
        `examples/workflows/speedgate-fork-safe.yml).`;
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
  let outcome: SideEffectOutcome<{ runId: number | null; runUrl: string | null }>;
  try {
    outcome = await request.dispatch.sideEffects.once({
      key: request.dispatch.key,
      kind: "dispatch",
      isDefiniteRefusal,
      send: async () =>
        await dispatchScoringWorkflow(client, {
          owner,
          repo,
          workflow: request.config.workflow,
          ref: request.defaultBranch,
          pullRequest: pull.number,
          headSha,
          // The base as the app sees it when scoring is asked for: the run scores the head against exactly this commit.
          baseSha: pull.baseSha ?? null,
          // Octokit would resend a 5xx on its own: a dispatch it cannot tell was done is not sent twice.
          noRetries: true,
        }),
    });
  } catch (error) {
    const status = statusOf(error);
    if (status !== 403 && status !== 404 && status !== 422) throw error;
    const refusal = describeRefusedDispatch(
      status,
      error instanceof Error ? error.message : "",
      request.config.workflow,
      request.defaultBranch,
    );
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
  if (outcome.state === "uncertain") {
    await publishUncertainDispatch(request, outcome.reason);
    return { started: "uncertain", reason: outcome.reason };
  }
  const { runId, runUrl } = outcome.result;
  await publishQueued(request, runId, runUrl);
  return { started: true, runId, runUrl };
}

/** The check says scoring was asked for and by whom, bound to the dispatched run so its card can only land here. */
async function publishQueued(request: RescoreRequest, runId: number | null, runUrl: string | null): Promise<void> {
  const summary = `Scoring of ${request.headSha.slice(0, 12)} was started by ${request.actor}${runUrl ? `: ${runUrl}` : "."}`;
  await publishQueuedCheck(request, { title: "Scoring queued", summary, runId, detailsUrl: runUrl });
}

/** The queued `speedgate` check of a dispatch, bound to its pull request and, when known, its run. */
async function publishQueuedCheck(
  request: RescoreRequest,
  check: { title: string; summary: string; runId: number | null; detailsUrl: string | null },
): Promise<void> {
  const { client, owner, repo, pull, headSha } = request;
  await publishCheckRun(client, {
    owner,
    repo,
    appId: request.appId,
    headSha,
    state: { status: "queued" },
    title: check.title,
    summary: check.summary,
    externalId: formatDispatchBinding({ pullRequest: pull.number, runId: check.runId }),
    ...(check.detailsUrl ? { detailsUrl: check.detailsUrl } : {}),
  });
}

/** Text for people when a dispatch may or may not have happened. */
export function describeUncertainDispatch(headSha: string, reason: string): string {
  return (
    `speedgate cannot tell whether the scoring workflow was started for ${headSha.slice(0, 12)}: ${reason}. ` +
    `It is not sent again, so no second GPU run starts. If no run of the scoring workflow for this commit appears in the Actions tab ` +
    `within a few minutes, comment \`/rescore ${headSha.slice(0, 12)}\`.`
  );
}

/**
 * The check stays open (not success) and bound to "a run of this pull request" without a run id: if the
 * run did start, its card is matched by the SHA in its title and concludes this check.
 */
async function publishUncertainDispatch(request: RescoreRequest, reason: string): Promise<void> {
  const summary = describeUncertainDispatch(request.headSha, reason);
  await publishQueuedCheck(request, { title: "Scoring may not have started", summary, runId: null, detailsUrl: request.pull.htmlUrl });
}
