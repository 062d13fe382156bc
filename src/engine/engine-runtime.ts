import type { EngineRole } from "../vocabulary/engine-failure.js";
import type { Logger } from "../logger.js";
import type { EngineExit } from "../vocabulary/engine-exit.js";
import type { CardCommitSide } from "../scorecard/scorecard-schema.js";

/** A started engine. The round runner polls its health, benchmarks it, and always stops it. */
export interface RunningEngine {
  role: EngineRole;
  /** Where the benchmark client sends requests, such as http://127.0.0.1:30000. */
  baseUrl: string;
  /** Settles when the engine exits, for whatever reason; never rejects. */
  exited: Promise<EngineExit>;
  /** The last lines the engine printed (stdout and stderr interleaved), oldest first. */
  logTail(): string[];
  /** Ends the engine and everything it started; safe to call twice and after it exited. */
  stop(): Promise<void>;
}

/** What preparing an engine produced, for the card's provenance. */
export interface PreparedEngine {
  role: EngineRole;
  /** Image ID or digest for Docker; null for the process runtime. */
  imageId: string | null;
  /** sha256 of the applied patch, candidate only. */
  patchHash: string | null;
}

/** What bringing the engines' sources to the round's commits did (base/head mode), for the card. */
export interface SourceReport {
  /** The engine image both engines were made from, as the config names it, and its ID (runtime: docker). */
  image: string | null;
  imageId: string | null;
  /** The commit of the image's source checkout, and where it was read. */
  imageRevision: string | null;
  imageRevisionFrom: string | null;
  baseline: CardCommitSide | null;
  candidate: CardCommitSide | null;
}

/**
 * One runtime per round (process or Docker). prepare() patches and builds (stages `patch` and
 * `build`), start() launches (stage `startup` begins). Failures are thrown as EngineFailureError
 * with the stage and kind already classified; a lost host the runtime can name (the Docker daemon
 * went away) as kind "infrastructure" too, other infrastructure problems as plain errors.
 */
export interface EngineRuntime {
  readonly name: "process" | "docker";
  prepare(role: EngineRole, signal: AbortSignal): Promise<PreparedEngine>;
  start(role: EngineRole, signal: AbortSignal): Promise<RunningEngine>;
  /** Removes everything this runtime created for the round (copies, containers, networks, images it owns). */
  dispose(): Promise<void>;
  /**
   * Reads a file from inside what the baseline engine runs from (its image, for Docker) without
   * starting it: how `bench.tokenizer` with `from: image` is found. Absent in runtimes without images.
   */
  readBaselineFile?(path: string, options: { maxBytes: number; what: string }, signal: AbortSignal): Promise<Buffer>;
  /** Base/head mode: what was done to bring each engine to its commit, as far as the round got (also after a failure). */
  sourceReport?(): SourceReport | null;
}

export interface RuntimeContext {
  logger: Logger;
  /** Identifies everything a round creates, so leftovers can be swept (`speedgate cleanup --run-id`). */
  runId: string;
}
