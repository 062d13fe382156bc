import { ConfigError } from "../vocabulary/config-error.js";
import { checkPatchBytes } from "../config/load-patch.js";
import { type GitHubClient, type RepoRef, statusOf } from "./github-client.js";
import type { Logger } from "../logger.js";
import { filterDiffByPaths } from "../patch/filter-diff-by-paths.js";

export interface PullRequestPatchOptions extends RepoRef {
  pullNumber: number;
  /** The commit to score. The diff is of exactly this commit, even when the pull request has moved on since. */
  headSha: string;
  /** Globs limiting the diff to these files; empty keeps every file. */
  paths: readonly string[];
  /** Names the input in errors, such as `input "patch-from-pr"`. */
  label: string;
  logger: Logger;
}

export interface PullRequestPatch {
  bytes: Buffer;
  baseSha: string;
  files: string[];
  /** Changed files the globs left out (renames named "old -> new"): not built, not measured. */
  leftOut: string[];
}

function describeHttpFailure(error: unknown, what: string): string {
  const status = statusOf(error);
  if (status === 404)
    return (
      `${what} was not found (HTTP 404): check the number and that the token ` + `may read pull requests (permissions: pull-requests: read)`
    );
  if (status === 403)
    return `${what} is not readable with this token (HTTP 403); grant permissions: pull-requests: read and contents: read`;
  return `${what} could not be fetched (${status === null ? (error as Error).message : `HTTP ${status}`})`;
}

function baseShaOf(data: unknown): string | null {
  if (typeof data !== "object" || data === null) return null;
  const base = (data as { base?: { sha?: unknown } }).base;
  return typeof base?.sha === "string" ? base.sha : null;
}

/**
 * The pull request's changes at `headSha` as a unified diff: the compare of its base with that
 * exact commit (three dots: from their merge base), so a push after the run was requested changes
 * nothing. The patch is data: nothing of the pull request's code is checked out or run here.
 */
export async function fetchPullRequestPatch(client: GitHubClient, options: PullRequestPatchOptions): Promise<PullRequestPatch> {
  const { owner, repo, pullNumber, headSha, label } = options;
  const what = `pull request #${pullNumber} of ${owner}/${repo}`;
  let baseSha: string | null;
  try {
    const response = await client.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner, repo, pull_number: pullNumber });
    baseSha = baseShaOf(response.data);
  } catch (error) {
    throw new ConfigError(`${label}: ${describeHttpFailure(error, what)}`);
  }
  if (!baseSha) throw new ConfigError(`${label}: ${what} came back without a base commit`);

  let diff: string;
  try {
    const response = await client.request("GET /repos/{owner}/{repo}/compare/{basehead}", {
      owner,
      repo,
      basehead: `${baseSha}...${headSha}`,
      mediaType: { format: "diff" },
    });
    if (typeof response.data !== "string") throw new Error("expected a diff, got JSON");
    diff = response.data;
  } catch (error) {
    throw new ConfigError(`${label}: ${describeHttpFailure(error, `the diff of ${what} at ${headSha}`)}`);
  }

  const filtered = options.paths.length > 0 ? filterDiffByPaths(diff, options.paths) : null;
  if (filtered) {
    options.logger.info(`${label}: kept ${filtered.kept.length} files matching patch-paths, left out ${filtered.dropped.length}`);
    if (filtered.kept.length === 0) {
      const seen = filtered.dropped.slice(0, 10).join(", ");
      throw new ConfigError(
        `input "patch-paths": expected globs matching at least one changed file, matched none of ${filtered.dropped.length} (${seen})`,
      );
    }
  }
  const bytes = Buffer.from(filtered ? filtered.text : diff, "utf8");
  checkPatchBytes(bytes, `${label} (${what} at ${headSha.slice(0, 12)})`);
  const files = filtered ? filtered.kept : filterDiffByPaths(diff, []).kept;
  return { bytes, baseSha, files, leftOut: filtered ? filtered.dropped : [] };
}
