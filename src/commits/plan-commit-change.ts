import type { SourceSettings } from "../config/source-settings-schema.js";
import { type ChangedFile, diffCommits, listChangedFiles } from "../git/compare-commits.js";
import { createPathFilter } from "../patch/glob-to-regexp.js";
import { type CardCommitSide, MAX_LISTED_OVERLAY_PATHS } from "../scorecard/scorecard-schema.js";

/** What one step between two commits changes, as the overlay applies it and the build rule reads it. */
export interface CommitChange {
  from: string;
  to: string;
  /** The changed files the overlay brings over (within source.paths). */
  files: ChangedFile[];
  /** Changed files outside source.paths: never applied (and said on the card). */
  leftOut: string[];
  /** Changed files matching source.compiledPaths, wherever they are: these need the build. */
  compiled: string[];
}

/** The files that differ between two commits, sorted into applied, left out and compiled. */
export async function planCommitChange(
  repoDir: string,
  from: string,
  to: string,
  source: Pick<SourceSettings, "paths" | "compiledPaths">,
  signal?: AbortSignal,
): Promise<CommitChange> {
  const changed = from === to ? [] : await listChangedFiles(repoDir, from, to, signal);
  const applied = createPathFilter(source.paths);
  const compiled = source.compiledPaths.length > 0 ? createPathFilter(source.compiledPaths) : () => false;
  return {
    from,
    to,
    files: changed.filter((file) => applied(file.path)),
    leftOut: changed.filter((file) => !applied(file.path)).map((file) => file.path),
    compiled: changed.filter((file) => compiled(file.path)).map((file) => file.path),
  };
}

/** The diff of exactly the files the overlay applies (every changed file when source.paths leaves none out). */
export async function diffOfChange(repoDir: string, change: CommitChange, signal?: AbortSignal): Promise<Buffer> {
  if (change.files.length === 0) return Buffer.alloc(0);
  return await diffCommits(
    repoDir,
    change.from,
    change.to,
    change.files.map((file) => file.path),
    signal,
  );
}

/** Whether an engine runs the round's build commands, and why, in the card's words. */
export interface BuildDecision {
  run: boolean;
  reason: string;
}

function named(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(", ");
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}

/**
 * The build rule: the candidate builds when the pull request changes compiled code; the baseline
 * builds when its own overlay (the image's commit to the base) changes compiled code, and also
 * whenever the candidate builds, so both engines' compiled parts come from the same commands on the
 * same runner and the only difference between them is the pull request.
 */
export function decideBuilds(base: CommitChange | null, head: CommitChange): { baseline: BuildDecision; candidate: BuildDecision } {
  const candidate: BuildDecision =
    head.compiled.length > 0
      ? { run: true, reason: `the pull request changes compiled code (${named(head.compiled)})` }
      : { run: false, reason: "the pull request changes no compiled path" };
  let baseline: BuildDecision;
  if (base && base.compiled.length > 0)
    baseline = { run: true, reason: `compiled code changed between the image's commit and the base (${named(base.compiled)})` };
  else if (candidate.run) baseline = { run: true, reason: "the candidate builds, so the baseline is built by the same commands" };
  else
    baseline = {
      run: false,
      reason: base
        ? "no compiled path changed between the image's commit and the base, and the pull request changes none"
        : "the pull request changes no compiled path",
    };
  return { baseline, candidate };
}

/** The card's account of one engine before anything was built: its commit, what its overlay changes, and the build rule's answer. */
export function describeCommitSide(commit: string, change: CommitChange | null, build: BuildDecision): CardCommitSide {
  return {
    commit,
    imageId: null,
    overlayFiles: change ? change.files.length : null,
    overlayPaths: change ? change.files.slice(0, MAX_LISTED_OVERLAY_PATHS).map((file) => file.path) : [],
    overlayMs: null,
    cache: null,
    leftOut: change ? change.leftOut.length : 0,
    build: { ran: false, reason: build.reason, ms: null, cache: null, hit: null },
  };
}
