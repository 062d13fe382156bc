import type { GitHubClient, RepoRef } from "./github-client.js";

export const CHECK_NAME = "speedgate";
/** GitHub's limits on a check run's output. */
export const MAX_CHECK_SUMMARY_CHARS = 65_535;
const MAX_CHECK_TITLE_CHARS = 1_000;

/*
 * Only success and failure (and action_required while waiting for a maintainer) are ever concluded:
 * a required check counts neutral and skipped as passing, so "no score" must never look like either.
 */
export type CheckState =
  | { status: "queued" | "in_progress" }
  | { status: "completed"; conclusion: "success" | "failure" | "action_required" };

export interface PublishCheckRunOptions extends RepoRef {
  headSha: string;
  state: CheckState;
  title: string;
  summary: string;
  /** Required by GitHub for action_required; the run's or the pull request's page otherwise. */
  detailsUrl?: string;
  /** Ties the check run to what the app dispatched (see format-dispatch-binding.ts). */
  externalId?: string;
  name?: string;
  /**
   * Only this app's checks are updated: a workflow job of the same name has its own check run, from
   * GitHub Actions, which is not ours to touch. The app passes its id; the action leaves it out.
   */
  appId?: number;
}

export interface CheckRunInfo {
  id: number;
  status: string;
  conclusion: string | null;
  externalId: string | null;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = "\n\n…cut to fit GitHub's size limit.";
  return `${text.slice(0, max - note.length)}${note}`;
}

function toCheckRun(value: unknown): CheckRunInfo | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as { id?: unknown; status?: unknown; conclusion?: unknown; external_id?: unknown };
  if (typeof record.id !== "number") return null;
  return {
    id: record.id,
    status: typeof record.status === "string" ? record.status : "",
    conclusion: typeof record.conclusion === "string" ? record.conclusion : null,
    externalId: typeof record.external_id === "string" && record.external_id !== "" ? record.external_id : null,
  };
}

/** The check runs of this name on a commit, newest first. */
export async function listCheckRuns(
  client: GitHubClient,
  options: RepoRef & { headSha: string; name?: string; appId?: number },
): Promise<CheckRunInfo[]> {
  const response = await client.request("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", {
    owner: options.owner,
    repo: options.repo,
    ref: options.headSha,
    check_name: options.name ?? CHECK_NAME,
    filter: "all",
    per_page: 100,
    ...(options.appId === undefined ? {} : { app_id: options.appId }),
  });
  const data = response.data as { check_runs?: unknown };
  const runs = Array.isArray(data.check_runs) ? data.check_runs : [];
  return runs.map(toCheckRun).filter((run): run is CheckRunInfo => run !== null).sort((a, b) => b.id - a.id);
}

/**
 * Creates or updates the `speedgate` check on a commit. An open check (queued or in progress) is
 * updated in place: the one with the same external id when one is given, else the newest open one
 * (for a conclusion, only one without another dispatch's id);
 * a completed check is never reopened (GitHub keeps conclusions), so a new one is created instead.
 * Branch protection reads the newest check run of the name.
 */
export async function publishCheckRun(client: GitHubClient, options: PublishCheckRunOptions): Promise<{ id: number; action: "created" | "updated" }> {
  const { owner, repo } = options;
  const output = { title: cut(options.title, MAX_CHECK_TITLE_CHARS), summary: cut(options.summary, MAX_CHECK_SUMMARY_CHARS) };
  const fields: Record<string, unknown> = {
    status: options.state.status,
    output,
    ...(options.state.status === "completed"
      ? { conclusion: options.state.conclusion, completed_at: new Date().toISOString() }
      : {}),
    ...(options.detailsUrl ? { details_url: options.detailsUrl } : {}),
    ...(options.externalId ? { external_id: options.externalId } : {}),
  };
  const open = (await listCheckRuns(client, options)).filter((run) => run.status !== "completed");
  // Another dispatch's open check is not ours to conclude; one without a binding is.
  const target =
    options.externalId === undefined
      ? open[0]
      : (open.find((run) => run.externalId === options.externalId) ?? open.find((run) => run.externalId === null || options.state.status !== "completed"));
  if (target) {
    await client.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", { owner, repo, check_run_id: target.id, ...fields });
    return { id: target.id, action: "updated" };
  }
  const created = await client.request("POST /repos/{owner}/{repo}/check-runs", {
    owner,
    repo,
    name: options.name ?? CHECK_NAME,
    head_sha: options.headSha,
    ...fields,
  });
  return { id: toCheckRun(created.data)?.id ?? 0, action: "created" };
}
