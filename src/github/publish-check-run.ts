import type { VerdictOutcome } from "../scorecard/decide-verdict.js";
import { fitUtf8 } from "../scorecard/render/fit-utf8-bytes.js";
import type { GitHubClient, RepoRef } from "./github-client.js";

export const CHECK_NAME = "speedgate";
/**
 * GitHub's limit on a check run's output.summary: documented as 65,535 "characters", enforced in UTF-8
 * bytes (github/rest-api-description#5399), so a card of CJK or progress-bar lines is refused far sooner.
 */
export const MAX_CHECK_SUMMARY_BYTES = 65_535;
const MAX_CHECK_TITLE_BYTES = 1_000;

/*
 * Only success and failure (and action_required while waiting for a maintainer) are ever concluded:
 * a required check counts neutral and skipped as passing, so "no score" must never look like either.
 */
export type CheckState =
  { status: "queued" | "in_progress" } | { status: "completed"; conclusion: "success" | "failure" | "action_required" };

export interface PublishCheckRunOptions extends RepoRef {
  headSha: string;
  state: CheckState;
  title: string;
  summary: string;
  /** Shown under the summary (output.text): what the app has to say besides the card. */
  text?: string;
  /** Required by GitHub for action_required; the run's or the pull request's page otherwise. */
  detailsUrl?: string;
  /** Ties the check run to what the app dispatched (see format-dispatch-binding.ts). */
  externalId?: string;
  name?: string;
  /**
   * A waiting check (queued, action_required) is published only on a commit that no scored run has
   * concluded yet: otherwise anyone opening another pull request with the same head commit could
   * put a newer waiting check on it and hold a passing pull request's merge.
   */
  unlessConcluded?: boolean;
  /**
   * Conclude only the open check bound to `externalId`, never create one: an older run's verdict
   * must not become the newest check run of a commit a newer run already concluded.
   */
  updateOnly?: boolean;
  /**
   * Keeps the newest check when it already concluded with this verdict and title (and binding): work
   * that may run twice (the app's jobs are at least once) publishes the card's check once.
   */
  unlessSame?: boolean;
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
  title: string | null;
}

/**
 * The conclusion a card's verdict gives its check. No verdict (the runner, the baseline or the
 * infrastructure failed) concludes as a failure whose title says "No verdict": a required check
 * takes neutral and skipped as passing, and a round that measured nothing must not let a merge through.
 */
export function checkConclusionFor(outcome: VerdictOutcome): "success" | "failure" {
  return outcome === "pass" ? "success" : "failure";
}

const CUT_NOTE = "\n\n…cut to fit GitHub's size limit.";

/** A conclusion that only a scored run (or a failure to score it) gives: the verdict branch protection reads. */
export function isConcluded(run: CheckRunInfo): boolean {
  return run.status === "completed" && (run.conclusion === "success" || run.conclusion === "failure");
}

function toCheckRun(value: unknown): CheckRunInfo | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as {
    id?: unknown;
    status?: unknown;
    conclusion?: unknown;
    external_id?: unknown;
    output?: { title?: unknown } | null;
  };
  if (typeof record.id !== "number") return null;
  return {
    id: record.id,
    status: typeof record.status === "string" ? record.status : "",
    conclusion: typeof record.conclusion === "string" ? record.conclusion : null,
    externalId: typeof record.external_id === "string" && record.external_id !== "" ? record.external_id : null,
    title: typeof record.output?.title === "string" ? record.output.title : null,
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
  return runs
    .map(toCheckRun)
    .filter((run): run is CheckRunInfo => run !== null)
    .sort((a, b) => b.id - a.id);
}

/**
 * Creates or updates the `speedgate` check on a commit. An open check (queued or in progress) is
 * updated in place: the one with the same external id when one is given, else the newest open one
 * (for a conclusion, only one without another dispatch's id);
 * a completed check is never reopened (GitHub keeps conclusions), so a new one is created instead.
 * Branch protection reads the newest check run of the name.
 */
export async function publishCheckRun(
  client: GitHubClient,
  options: PublishCheckRunOptions,
): Promise<{ id: number; action: "created" | "updated" | "kept" }> {
  const { owner, repo } = options;
  const output = {
    title: fitUtf8(options.title, MAX_CHECK_TITLE_BYTES, "…"),
    summary: fitUtf8(options.summary, MAX_CHECK_SUMMARY_BYTES, CUT_NOTE),
    ...(options.text ? { text: fitUtf8(options.text, MAX_CHECK_SUMMARY_BYTES, CUT_NOTE) } : {}),
  };
  const fields: Record<string, unknown> = {
    status: options.state.status,
    output,
    ...(options.state.status === "completed" ? { conclusion: options.state.conclusion, completed_at: new Date().toISOString() } : {}),
    ...(options.detailsUrl ? { details_url: options.detailsUrl } : {}),
    ...(options.externalId ? { external_id: options.externalId } : {}),
  };
  const runs = await listCheckRuns(client, options);
  if (options.unlessConcluded) {
    const concluded = runs.find(isConcluded);
    if (concluded) return { id: concluded.id, action: "kept" };
  }
  const newest = runs[0];
  if (
    options.unlessSame &&
    options.state.status === "completed" &&
    newest?.status === "completed" &&
    newest.conclusion === options.state.conclusion &&
    newest.title === output.title &&
    newest.externalId === (options.externalId ?? null)
  ) {
    return { id: newest.id, action: "kept" };
  }
  const open = runs.filter((run) => run.status !== "completed");
  // Another dispatch's open check is not ours to conclude; one without a binding is.
  const target = options.updateOnly
    ? open.find((run) => options.externalId !== undefined && run.externalId === options.externalId)
    : options.externalId === undefined
      ? open[0]
      : (open.find((run) => run.externalId === options.externalId) ??
        open.find((run) => run.externalId === null || options.state.status !== "completed"));
  if (target) {
    await client.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", { owner, repo, check_run_id: target.id, ...fields });
    return { id: target.id, action: "updated" };
  }
  if (options.updateOnly) return { id: 0, action: "kept" };
  const created = await client.request("POST /repos/{owner}/{repo}/check-runs", {
    owner,
    repo,
    name: options.name ?? CHECK_NAME,
    head_sha: options.headSha,
    ...fields,
  });
  return { id: toCheckRun(created.data)?.id ?? 0, action: "created" };
}
