export type EngineRole = "baseline" | "candidate";

/** Where in a round the engine failed: patching the source, building the image, starting, or serving. */
export type FailureStage = "patch" | "build" | "startup" | "benchmark";

export const FAILURE_KINDS = [
  "cuda_oom",
  "gpu_oom",
  "host_oom",
  "nccl_error",
  "import_error",
  "port_in_use",
  "invalid_argument",
  "model_not_found",
  "model_load_error",
  "startup_timeout",
  // The engine's own assertion or abort (GGML_ASSERT, assert, a CUDA device-side assert, Python's AssertionError).
  "assertion_failed",
  // A segmentation fault or another fatal signal (bus error, illegal instruction, an abort without a message).
  "fatal_signal",
  "exited",
  "patch_conflict",
  "patch_tool_missing",
  "build_error",
  "build_timeout",
  "image_missing",
  "gpu_unavailable",
  "container_refused",
  "infrastructure",
  "cancelled",
  // The engine image's source cannot be brought to the pull request's base: neither engine's fault nor the patch's.
  "image_base_mismatch",
] as const;

export type FailureKind = (typeof FAILURE_KINDS)[number];

/**
 * Everything the card says about an engine that failed. `summary` is the one line a reader needs
 * (the exception line), `hint` what to try, `logTail` the last lines as the engine printed them.
 */
export interface EngineFailure {
  engine: EngineRole;
  stage: FailureStage;
  kind: FailureKind;
  /** Human wording of the kind, such as "CUDA out of memory during CUDA graph capture". */
  label: string;
  summary: string;
  hint: string;
  exitCode: number | null;
  signal: string | null;
  logTail: string[];
  /** The run (1-based) it failed in, when the round repeats its runs (bench.runs); the round runner sets it. */
  run?: number | null;
  /** In a round with scenarios: the scenario the engine was serving when it failed; the round runner sets it. */
  scenario?: string | null;
  /** A crash's first frames that name the engine's own code, innermost first (assertion_failed, fatal_signal). */
  frames?: string[];
  /** The prompt the engine was serving when it died mid-benchmark: its place in the benchmark's order (1-based) and its id. */
  prompt?: FailedPrompt | null;
}

export interface FailedPrompt {
  number: number;
  id: string;
}

/** Thrown by runtimes and the round runner; carries the classified failure up to the card. */
export class EngineFailureError extends Error {
  constructor(readonly failure: EngineFailure) {
    super(`${failure.engine} engine failed at ${failure.stage} (${failure.kind}): ${failure.summary}`);
    this.name = "EngineFailureError";
  }
}
