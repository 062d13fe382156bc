import type { ShardSpec } from "../src/shard/shard-spec.js";

/** Where the candidate's patch comes from: the config, a file, or the pull request's own diff. */
export type PatchSource = { kind: "config" } | { kind: "file"; path: string } | { kind: "pull-request"; paths: string[] };

interface CommonSettings {
  outDir: string;
  failOnGate: boolean;
  comment: boolean;
  githubToken: string;
}

/**
 * Base/head mode: the commits the inputs name, each null where the event's default applies (the pull
 * request's base and head), and the repository they are read from (GITHUB_WORKSPACE when null).
 */
export interface CommitInputs {
  base: string | null;
  head: string | null;
  repositoryPath: string | null;
}

export interface RunSettings extends CommonSettings {
  mode: "run";
  config: string;
  patch: PatchSource;
  commits: CommitInputs;
  shard: ShardSpec | null;
}

export interface MergeSettings extends CommonSettings {
  mode: "merge";
  /** Globs, files or folders of shard cards, one a line. */
  cards: string[];
}

/**
 * mode: watch (docs/watching-main.md): main's head against the last commit the watch found good, the
 * CLI's `speedgate watch` through the action's runtime. fail-on-gate does not apply: a drift round
 * compares two commits of main, not a patch, and fails the step only with fail-on-drift.
 */
export interface WatchModeSettings extends CommonSettings {
  mode: "watch";
  config: string;
  /** The good commit for this run only (base-sha); null: the state file's, else watch.since. */
  good: string | null;
  /** Main's head (head-sha); null: the checked-out commit. */
  head: string | null;
  /** The clone of the engine's repository (repository-path); null: GITHUB_WORKSPACE. */
  repositoryPath: string | null;
  /** The watch's state file (state-file), relative to the repository; kept between runs by actions/cache. */
  stateFile: string;
  /** Bisect on this runner, one round after another, when the drift round raises an alarm. */
  bisect: boolean;
  failOnDrift: boolean;
}

/** Every input of action.yml, parsed and checked once. */
export type ActionSettings = RunSettings | MergeSettings | WatchModeSettings;
