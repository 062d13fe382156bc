import { join } from "node:path";
import { tmpdir } from "node:os";
import { ConfigError } from "../src/vocabulary/config-error.js";
import { describeValue } from "../src/vocabulary/describe-value.js";
import { parseShardSpec } from "../src/shard/shard-spec.js";
import type { ActionSettings, CommitInputs, PatchSource } from "./action-settings.js";

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
} as const;

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

function rejectForMode(read: InputReader, names: readonly string[], mode: string): void {
  for (const name of names) {
    if (read(name).trim() !== "") throw new ConfigError(`${label(name)}: expected only with mode: run, but mode is ${mode}`);
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
  if (mode !== "run") throw new ConfigError(`${label(INPUTS.mode)}: expected "run" or "merge", got ${describeValue(mode)}`);
  if (read(INPUTS.cards).trim() !== "") throw new ConfigError(`${label(INPUTS.cards)}: expected only with mode: merge, but mode is run`);
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
