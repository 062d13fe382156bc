import { join } from "node:path";
import { tmpdir } from "node:os";
import { ConfigError } from "../src/vocabulary/config-error.js";
import { describeValue } from "../src/vocabulary/describe-value.js";
import { parseShardSpec } from "../src/shard/shard-spec.js";
import type { ActionSettings, CommitInputs, PatchSource, WatchModeSettings } from "./action-settings.js";

/** The input names of action.yml, in one place. */
export const INPUTS = {
  config: "config",
  patch: "patch",
  patchFromPr: "patch-from-pr",
  patchPaths: "patch-paths",
  baseSha: "base-sha",
  headSha: "head-sha",
  repositoryPath: "repository-path",
  outDir: "out-dir",
  shard: "shard",
  mode: "mode",
  cards: "cards",
  failOnGate: "fail-on-gate",
  comment: "comment",
  githubToken: "github-token",
  stateFile: "state-file",
  bisect: "bisect",
  failOnDrift: "fail-on-drift",
} as const;

/** The watch's state file when state-file is empty: where `speedgate watch` keeps it (src/cli/commands/watch-command.ts). */
export const DEFAULT_WATCH_STATE_FILE = ".speedgate/watch-state.json";

/** Reads one input as the runner passes it; `core.getInput` in the action, a map in tests. */
export type InputReader = (name: string) => string;

function label(name: string): string {
  return `input "${name}"`;
}

function readBoolean(read: InputReader, name: string, fallback: boolean): boolean {
  const value = read(name).trim();
  if (value === "") return fallback;
  if (/^(true|yes|on)$/i.test(value)) return true;
  if (/^(false|no|off)$/i.test(value)) return false;
  throw new ConfigError(`${label(name)}: expected true or false, got ${describeValue(value)}`);
}

/** One entry a line or comma-separated, as lists are written in workflow YAML; `#` starts a comment line. */
function readList(read: InputReader, name: string): string[] {
  return read(name)
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== "" && !item.startsWith("#"));
}

function rejectForMode(read: InputReader, names: readonly string[], mode: string, onlyWith = "mode: run"): void {
  for (const name of names) {
    if (read(name).trim() !== "") throw new ConfigError(`${label(name)}: expected only with ${onlyWith}, but mode is ${mode}`);
  }
}

function readPatchSource(read: InputReader): PatchSource {
  const file = read(INPUTS.patch).trim();
  const fromPr = readBoolean(read, INPUTS.patchFromPr, false);
  const paths = readList(read, INPUTS.patchPaths);
  if (file && fromPr) {
    throw new ConfigError(`${label(INPUTS.patch)}: expected either a patch file or patch-from-pr: true, not both`);
  }
  if (paths.length > 0 && !fromPr) {
    throw new ConfigError(`${label(INPUTS.patchPaths)}: expected only with patch-from-pr: true (it limits the pull request's diff)`);
  }
  if (fromPr) return { kind: "pull-request", paths };
  return file ? { kind: "file", path: file } : { kind: "config" };
}

/** A revision as git takes it: a SHA, a branch, HEAD~1; not an option, not a pathspec. */
function readRevision(read: InputReader, name: string): string | null {
  const value = read(name).trim();
  if (value === "") return null;
  if (value.startsWith("-") || /\s/.test(value))
    throw new ConfigError(`${label(name)}: expected a commit SHA or another git revision, got ${describeValue(value)}`);
  return value;
}

function readCommitInputs(read: InputReader, patch: PatchSource): CommitInputs {
  const commits = {
    base: readRevision(read, INPUTS.baseSha),
    head: readRevision(read, INPUTS.headSha),
    repositoryPath: read(INPUTS.repositoryPath).trim() || null,
  };
  if ((commits.base !== null || commits.head !== null) && patch.kind !== "config") {
    const given = commits.base !== null ? INPUTS.baseSha : INPUTS.headSha;
    throw new ConfigError(
      `${label(given)}: expected either base-sha/head-sha (score the pull request's head against its base) or ` +
        `${patch.kind === "file" ? INPUTS.patch : INPUTS.patchFromPr} (a fixed baseline and a patch), not both`,
    );
  }
  return commits;
}

/** The state file's path as given: relative to the repository, inside it (the cache step saves it from there). */
function readStateFile(read: InputReader): string {
  const value = read(INPUTS.stateFile).trim();
  if (value === "") return DEFAULT_WATCH_STATE_FILE;
  if (value.startsWith("/") || value.split(/[\\/]/).includes("..") || /[\0\n]/.test(value)) {
    throw new ConfigError(
      `${label(INPUTS.stateFile)}: expected a path inside the repository, such as ${DEFAULT_WATCH_STATE_FILE}, got ${describeValue(value)}`,
    );
  }
  return value;
}

/** mode: watch: the round config, the two commits (both optional), the state file and what to do on a drift. */
function readWatchSettings(read: InputReader, common: Omit<WatchModeSettings, "mode" | "config" | WatchOnly>): WatchModeSettings {
  rejectForMode(read, [INPUTS.patch, INPUTS.patchPaths, INPUTS.shard, INPUTS.cards], "watch");
  if (readBoolean(read, INPUTS.patchFromPr, false)) rejectForMode(read, [INPUTS.patchFromPr], "watch");
  if (common.comment) {
    throw new ConfigError(
      `${label(INPUTS.comment)}: expected false with mode: watch (a drift round has no pull request; the app comments on the ` +
        "first bad merge's)",
    );
  }
  const config = read(INPUTS.config).trim();
  if (!config) throw new ConfigError(`${label(INPUTS.config)}: expected the path of a round config file (mode: watch), got nothing`);
  return {
    mode: "watch",
    config,
    good: readRevision(read, INPUTS.baseSha),
    head: readRevision(read, INPUTS.headSha),
    repositoryPath: read(INPUTS.repositoryPath).trim() || null,
    stateFile: readStateFile(read),
    bisect: readBoolean(read, INPUTS.bisect, false),
    failOnDrift: readBoolean(read, INPUTS.failOnDrift, false),
    ...common,
  };
}

type WatchOnly = "good" | "head" | "repositoryPath" | "stateFile" | "bisect" | "failOnDrift";

/**
 * Parses every input once into typed settings. Errors name the input and the form it expects, and
 * are ConfigErrors: the step fails with that one message and nothing has started.
 */
export function readSettings(read: InputReader, env: NodeJS.ProcessEnv): ActionSettings {
  const mode = read(INPUTS.mode).trim() || "run";
  const common = {
    outDir: read(INPUTS.outDir).trim() || join(env.RUNNER_TEMP || tmpdir(), "speedgate"),
    failOnGate: readBoolean(read, INPUTS.failOnGate, true),
    comment: readBoolean(read, INPUTS.comment, false),
    githubToken: read(INPUTS.githubToken).trim(),
  };
  if (mode === "merge") {
    rejectForMode(read, [INPUTS.stateFile, INPUTS.bisect, INPUTS.failOnDrift], mode, "mode: watch");
    rejectForMode(
      read,
      [INPUTS.config, INPUTS.patch, INPUTS.patchPaths, INPUTS.shard, INPUTS.baseSha, INPUTS.headSha, INPUTS.repositoryPath],
      mode,
    );
    if (readBoolean(read, INPUTS.patchFromPr, false)) rejectForMode(read, [INPUTS.patchFromPr], mode);
    const cards = readList(read, INPUTS.cards);
    if (cards.length === 0) {
      throw new ConfigError(
        `${label(INPUTS.cards)}: expected a folder, file or glob of shard scorecard.json files (mode: merge), got nothing`,
      );
    }
    return { mode, cards, ...common };
  }
  if (mode === "watch") return readWatchSettings(read, common);
  if (mode !== "run") throw new ConfigError(`${label(INPUTS.mode)}: expected "run", "merge" or "watch", got ${describeValue(mode)}`);
  if (read(INPUTS.cards).trim() !== "") throw new ConfigError(`${label(INPUTS.cards)}: expected only with mode: merge, but mode is run`);
  rejectForMode(read, [INPUTS.stateFile, INPUTS.bisect, INPUTS.failOnDrift], mode, "mode: watch");
  const config = read(INPUTS.config).trim();
  if (!config) throw new ConfigError(`${label(INPUTS.config)}: expected the path of a round config file (mode: run), got nothing`);
  const shardText = read(INPUTS.shard).trim();
  const patch = readPatchSource(read);
  return {
    mode,
    config,
    patch,
    commits: readCommitInputs(read, patch),
    shard: shardText ? parseShardSpec(shardText, label(INPUTS.shard)) : null,
    ...common,
  };
}
