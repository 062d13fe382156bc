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

/** Every input of action.yml, parsed and checked once. */
export type ActionSettings = RunSettings | MergeSettings;
