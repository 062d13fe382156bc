import { isAbsolute } from "node:path";
import { findMergeBase } from "../git/compare-commits.js";
import { findRepositoryRoot, resolveCommit } from "../git/resolve-commit.js";
import { GitError, runGit } from "../git/run-git.js";
import { ConfigError } from "../vocabulary/config-error.js";
import { describeValue } from "../vocabulary/describe-value.js";
import type { RoundConfig } from "./round-config-schema.js";

/**
 * The commits a base/head round scores: the baseline is the pull request's base, the candidate its
 * head merged onto that base (the diff from their merge base to the head, applied to the base), so
 * the only difference between the engines is the pull request.
 */
export interface RoundCommits {
  /** The git repository the commits are read from (on this machine). */
  repoDir: string;
  base: string;
  head: string;
  /** Where the pull request's diff starts: the base itself when the head is up to date with it. */
  mergeBase: string;
  /** As given (a SHA, a branch, HEAD), for messages. */
  baseRef: string;
  headRef: string;
}

/** What the caller asked for, and how to name each in an error (`--base`, `input "base-sha"`). */
export interface CommitsRequest {
  base: string;
  head: string;
  /** The repository; the one the current folder is in when not given. */
  repoDir?: string;
  labels?: { base: string; head: string; repo: string };
}

const DEFAULT_LABELS = { base: "--base", head: "--head", repo: "--repo" };

/** Where each engine runs with runtime: process: a folder of the repository, the same in both worktrees. */
function checkProcessFolders(config: RoundConfig): string[] {
  const problems: string[] = [];
  for (const [field, value] of [
    ["baseline.cwd", config.baseline.cwd],
    ["candidate.cwd", config.candidate.cwd],
  ] as const) {
    if (value !== undefined && isAbsolute(value)) {
      problems.push(
        `${field}: expected a folder relative to the repository's root (each engine runs in a worktree of its commit), got ` +
          `${describeValue(value, 200)}`,
      );
    }
  }
  return problems;
}

/** Whether the config can score commits at all, before git is asked anything. */
export function findCommitsConfigProblems(config: RoundConfig, patchGiven: boolean): string[] {
  const problems: string[] = [];
  if (patchGiven || config.candidate.patch) {
    problems.push(
      "candidate.patch: expected no patch when scoring commits (--base and --head, or the action's base-sha and head-sha): the " +
        "candidate is the head commit; a fixed baseline with a patch is the other mode (--patch), use one or the other",
    );
  }
  if (config.candidate.build)
    problems.push(
      "candidate.build: expected no candidate build when scoring commits: both engines are made from one image, brought to each commit",
    );
  if (config.runtime === "docker" && !config.candidate.sourceDir) {
    problems.push(
      "candidate.sourceDir: expected the folder of the engine's source checkout inside the image (such as /sgl-workspace/sglang), " +
        "which is brought to each commit",
    );
  }
  if (config.runtime === "process") problems.push(...checkProcessFolders(config));
  return problems;
}

/** A folder a process engine runs in must exist at both commits, or the round would fail at its start. */
async function checkFoldersAtCommits(config: RoundConfig, commits: RoundCommits): Promise<string[]> {
  if (config.runtime !== "process") return [];
  const problems: string[] = [];
  const folders = [
    ["baseline.cwd", config.baseline.cwd, commits.base],
    ["candidate.cwd", config.candidate.cwd ?? config.baseline.cwd, commits.head],
  ] as const;
  for (const [field, folder, commit] of folders) {
    if (folder === undefined || folder === "." || folder === "") continue;
    const { stdout, exitCode } = await runGit(
      commits.repoDir,
      ["cat-file", "-t", `${commit}:${folder.replace(/^\.\//, "").replace(/\/$/, "")}`],
      { okExitCodes: [1, 128] },
    );
    if (exitCode !== 0 || stdout.toString("utf8").trim() !== "tree") {
      problems.push(
        `${field}: expected a folder of the repository at ${commit.slice(0, 12)}, got ${describeValue(folder, 200)}: there is no ` +
          `such folder in that commit`,
      );
    }
  }
  return problems;
}

/** Resolves the base and head commits in the repository; every problem is a ConfigError (exit 2) before anything starts. */
export async function resolveRoundCommits(config: RoundConfig, request: CommitsRequest): Promise<RoundCommits> {
  const labels = request.labels ?? DEFAULT_LABELS;
  let repoDir: string | null;
  const from = request.repoDir ?? process.cwd();
  try {
    repoDir = await findRepositoryRoot(from);
  } catch (error) {
    throw new ConfigError(`${labels.repo}: ${error instanceof GitError ? error.message : String(error)}`);
  }
  if (!repoDir) {
    throw new ConfigError(
      `${labels.repo}: expected a git repository holding the commits to score, but ${from} is not in ` +
        `one${request.repoDir ? "" : " (run speedgate in a clone of the engine, or pass --repo DIR)"}`,
    );
  }
  const resolved: Record<"base" | "head", string> = { base: "", head: "" };
  for (const which of ["base", "head"] as const) {
    const sha = await resolveCommit(repoDir, request[which]);
    if (!sha) {
      throw new ConfigError(
        `${labels[which]}: expected a commit of the repository at ${repoDir}, got ${describeValue(request[which], 200)}, which it ` +
          `does not have (fetch it first, such as git fetch origin ${request[which]})`,
      );
    }
    resolved[which] = sha;
  }
  const mergeBase = await findMergeBase(repoDir, resolved.base, resolved.head);
  if (!mergeBase) {
    throw new ConfigError(
      `${labels.head}: expected a commit that shares history with the base ${resolved.base.slice(0, 12)}, but ` +
        `${resolved.head.slice(0, 12)} has no common ancestor with it`,
    );
  }
  const commits: RoundCommits = {
    repoDir,
    base: resolved.base,
    head: resolved.head,
    mergeBase,
    baseRef: request.base,
    headRef: request.head,
  };
  const problems = await checkFoldersAtCommits(config, commits);
  if (problems.length > 0) throw ConfigError.fromProblems(problems, labels.repo);
  return commits;
}
