import type { EngineExit } from "../vocabulary/engine-exit.js";
import type { EngineFamily } from "../vocabulary/engine-family.js";
import { cleanLogLine } from "../safe-text/sanitize-log-tail.js";
import type { EngineFailure, EngineRole, FailureKind, FailureStage } from "../vocabulary/engine-failure.js";
import { type FailureHintBook, failureHintBook } from "./failure-hint-book.js";
import { NCCL_HINT } from "./failure-hints.js";
import {
  ARGPARSE_INVALID_ARGUMENT,
  CUDA_OOM,
  EXCEPTION_LINE,
  HF_MODEL_NOT_FOUND,
  HOST_OOM,
  IMPORT_ERROR_TYPES,
  KV_CACHE_OOM_MESSAGE,
  LLAMA_CPP_COMPUTE_ALLOC,
  LLAMA_CPP_CUDA_OOM,
  LLAMA_CPP_GGUF_ERROR,
  LLAMA_CPP_HOST_ALLOC,
  LLAMA_CPP_INVALID_ARGUMENT,
  LLAMA_CPP_KV_CACHE_ALLOC,
  LLAMA_CPP_MODEL_LOAD_ERROR,
  LLAMA_CPP_MODEL_NOT_FOUND,
  LLAMA_CPP_OTHER_GPU_OOM,
  LLAMA_CPP_PORT_IN_USE,
  LLAMA_CPP_WEIGHTS_ALLOC,
  MODULE_ATTRIBUTE_ERROR,
  NCCL_ERROR,
  OOM_PHASES,
  type OomPhase,
  PORT_IN_USE,
  TRACEBACK_FRAME,
  TRACEBACK_START,
  WRAPPER_EXCEPTION,
} from "./failure-patterns.js";
import { readCrashReport } from "./read-crash-report.js";
import { firstLlamaCppError, looksLikeLlamaCpp } from "./read-llama-cpp-log.js";
import { stripLogPrefix } from "./strip-log-prefix.js";

export interface ClassifyInput {
  role: EngineRole;
  stage: FailureStage;
  exit: EngineExit | null;
  logLines: string[];
  timedOut?: { afterS: number };
  /** The engine the round config names; when absent, or not one speedgate knows, its log may still show it is llama.cpp. */
  engine?: EngineFamily | null;
  /** The runtime that ran it: what clears a leftover engine differs (a container or a process). */
  runtime?: "process" | "docker" | null;
}

export const MAX_SUMMARY_CHARS = 1_000;
export const FAILURE_LOG_TAIL_LINES = 200;

interface Diagnosis {
  kind: FailureKind;
  label: string;
  hint: string;
  /** Index (in the stripped lines) of the line that decided it, for the summary. */
  line: number | null;
  /** Said after the decisive line, when another line of the log adds what it lacks (the size of a refused allocation). */
  detail: string | null;
  /** The whole summary, when it is not one line of the log (a Python assertion with its file, line and statement). */
  summary?: string | null;
  /** A crash's frames of the engine's own code. */
  frames?: string[];
}

/** An exception named mid-line ("Scheduler hit an exception: torch.OutOfMemoryError: …"). */
const EMBEDDED_EXCEPTION = /(?:^|[\s:(])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception)): /g;

function capSummary(text: string): string {
  let flat = text.trim();
  // Start at the last exception the line names, so a flattened traceback reads as its error.
  const starts = [...flat.matchAll(EMBEDDED_EXCEPTION)].map((match) => match.index + match[0].indexOf(match[1] ?? ""));
  const last = starts.at(-1);
  if (last !== undefined && last > 0 && flat.length > 200) flat = flat.slice(last);
  return flat.length <= MAX_SUMMARY_CHARS ? flat : `${flat.slice(0, MAX_SUMMARY_CHARS - 1)}…`;
}

function lastIndexMatching(lines: readonly string[], test: (line: string) => boolean, before = lines.length): number {
  for (let index = Math.min(before, lines.length) - 1; index >= 0; index--) if (test(lines[index] ?? "")) return index;
  return -1;
}

/** The last exception line that is not a wrapper pointing at an earlier one. */
function decisiveException(lines: readonly string[]): number {
  const wrapped = lastIndexMatching(lines, (line) => EXCEPTION_LINE.test(line) && !WRAPPER_EXCEPTION.test(line));
  return wrapped >= 0 ? wrapped : lastIndexMatching(lines, (line) => EXCEPTION_LINE.test(line));
}

/** What the engine was doing when memory ran out: the innermost telling frame, else its last stage message. */
function oomPhase(lines: readonly string[], at: number): OomPhase {
  if (KV_CACHE_OOM_MESSAGE.test(lines[at] ?? "") && !/CUDA out of memory|OutOfMemoryError/i.test(lines[at] ?? "")) return "kv_cache";
  const tracebackStart = lastIndexMatching(lines, (line) => TRACEBACK_START.test(line), at);
  const scanFrom = tracebackStart >= 0 ? tracebackStart : Math.max(0, at - 60);
  // A log flattened onto one line (some CI log collectors do that) carries its frames before the error.
  const ownLine = lines[at] ?? "";
  const errorStart = ownLine.search(CUDA_OOM);
  const ownFrames =
    errorStart > 0
      ? ownLine
          .slice(0, errorStart)
          .split(/(?=File ")/)
          .reverse()
      : [];
  const inTraceback = [...ownFrames, ...lines.slice(scanFrom, at).reverse()];
  const before = lines.slice(Math.max(0, scanFrom - 40), scanFrom).reverse();
  for (const candidates of [inTraceback, before]) {
    for (const line of candidates) {
      const found = OOM_PHASES.find(({ pattern }) => pattern.test(line));
      if (found) return found.phase;
    }
  }
  return "other";
}

const OOM_LABELS: Record<OomPhase, string> = {
  graph_capture: "CUDA out of memory during CUDA graph capture",
  weights: "CUDA out of memory while loading weights",
  kv_cache: "CUDA out of memory while allocating the KV cache",
  other: "CUDA out of memory",
};

/** "path/to/file.py, line 12" from the frame nearest above an exception line. */
function frameLocation(lines: readonly string[], at: number): string | null {
  const frame = lastIndexMatching(lines, (line) => TRACEBACK_FRAME.test(line), at);
  if (frame < 0) return null;
  const match = TRACEBACK_FRAME.exec(lines[frame] ?? "");
  return match ? `${match[1]}, line ${match[2]}` : null;
}

function describeExit(exit: EngineExit | null): string {
  if (!exit) return "stopped";
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exited with code ${exit.exitCode ?? "unknown"}`;
}

function portFrom(lines: readonly string[], at: number): number | null {
  const match = /(?::|port:? |, )(\d{2,5})\b/.exec(lines[at] ?? "");
  return match ? Number(match[1]) : null;
}

/** The first line at or after `from` that matches, else -1. */
function firstIndexMatching(lines: readonly string[], pattern: RegExp, from = 0): number {
  for (let index = Math.max(0, from); index < lines.length; index++) if (pattern.test(lines[index] ?? "")) return index;
  return -1;
}

/**
 * What llama.cpp was allocating when its allocator failed: the allocator prints its own line first and
 * the caller's verdict follows ("failed to allocate buffer for kv cache", "unable to allocate CUDA0 buffer").
 */
function llamaCppOomPhase(lines: readonly string[], at: number): OomPhase {
  const after = lines.slice(at, at + 12);
  if (after.some((line) => LLAMA_CPP_KV_CACHE_ALLOC.test(line))) return "kv_cache";
  if (after.some((line) => LLAMA_CPP_WEIGHTS_ALLOC.test(line))) return "weights";
  if (after.some((line) => LLAMA_CPP_COMPUTE_ALLOC.test(line))) return "graph_capture";
  return "other";
}

/** llama.cpp captures no CUDA graphs at start: its "graph" phase is the compute buffers a batch needs. */
const LLAMA_CPP_OOM_LABELS: Record<OomPhase, string> = {
  ...OOM_LABELS,
  graph_capture: "CUDA out of memory while reserving compute buffers",
};

/** The line that says what the allocation was for, after the allocator's own, when there is one. */
function allocationVerdict(lines: readonly string[], at: number): number {
  const verdict = firstIndexMatching(lines, LLAMA_CPP_KV_CACHE_ALLOC, at);
  return verdict >= 0 && verdict - at < 12 ? verdict : at;
}

/** Memory the engine asked for and did not get (not the OOM killer): llama.cpp's GPU and host allocators. */
function diagnoseAllocation(input: ClassifyInput, lines: readonly string[], hints: FailureHintBook): Diagnosis | null {
  const find = (pattern: RegExp) => lastIndexMatching(lines, (line) => pattern.test(line));
  const llamaCudaAt = firstIndexMatching(lines, LLAMA_CPP_CUDA_OOM);
  if (llamaCudaAt >= 0) {
    const phase = llamaCppOomPhase(lines, llamaCudaAt);
    const label = input.stage === "benchmark" && phase === "other" ? "CUDA out of memory while serving" : LLAMA_CPP_OOM_LABELS[phase];
    return { kind: "cuda_oom", label, hint: hints.cudaOom(phase), line: llamaCudaAt, detail: null };
  }
  const oomAt = find(CUDA_OOM);
  if (oomAt >= 0) {
    const phase = oomPhase(lines, oomAt);
    const label = input.stage === "benchmark" && phase === "other" ? "CUDA out of memory while serving" : OOM_LABELS[phase];
    return { kind: "cuda_oom", label, hint: hints.cudaOom(phase), line: oomAt, detail: null };
  }
  const gpuAt = firstIndexMatching(lines, LLAMA_CPP_OTHER_GPU_OOM);
  if (gpuAt >= 0) {
    const kv = allocationVerdict(lines, gpuAt) !== gpuAt;
    return {
      kind: "gpu_oom",
      label: kv ? "GPU out of memory while allocating the KV cache" : "GPU out of memory (Metal or Vulkan)",
      hint: hints.gpuOom,
      line: gpuAt,
      detail: null,
    };
  }
  const hostAt = firstIndexMatching(lines, LLAMA_CPP_HOST_ALLOC);
  if (hostAt >= 0) {
    const verdict = allocationVerdict(lines, hostAt);
    const kv = verdict !== hostAt;
    // The verdict says what for, the allocator how much: "… failed to allocate buffer for kv cache (attempted to allocate 3906.25 MB)".
    const size = /\(attempted to allocate [^)]+\)|buffer of size \d+/.exec(lines[hostAt] ?? "")?.[0] ?? null;
    return {
      kind: "host_oom",
      label: kv ? "host memory refused the KV cache" : "host memory refused an allocation",
      hint: hints.hostAlloc,
      line: verdict,
      detail: kv && size ? size.replace(/^\(|\)$/g, "") : null,
    };
  }
  return null;
}

/** Problems with what the engine was told to run: its flags and its model file. */
function diagnoseLaunch(lines: readonly string[], hints: FailureHintBook): Diagnosis | null {
  const argumentAt = firstIndexMatching(lines, LLAMA_CPP_INVALID_ARGUMENT);
  const argparseAt = argumentAt >= 0 ? -1 : firstIndexMatching(lines, ARGPARSE_INVALID_ARGUMENT);
  if (argumentAt >= 0 || argparseAt >= 0) {
    return {
      kind: "invalid_argument",
      label: "the engine refused its command line",
      hint: hints.invalidArgument,
      line: Math.max(argumentAt, argparseAt),
      detail: null,
    };
  }
  const missingAt = firstIndexMatching(lines, LLAMA_CPP_MODEL_NOT_FOUND);
  const hfMissingAt = missingAt >= 0 ? -1 : lastIndexMatching(lines, (line) => HF_MODEL_NOT_FOUND.test(line));
  if (missingAt >= 0 || hfMissingAt >= 0) {
    return {
      kind: "model_not_found",
      label: "the model file is not there",
      hint: hints.modelNotFound,
      line: Math.max(missingAt, hfMissingAt),
      detail: null,
    };
  }
  // The GGUF reader says why (bad magic, truncated); the loader's own line only that it failed.
  const ggufAt = firstIndexMatching(lines, LLAMA_CPP_GGUF_ERROR);
  const loadAt = ggufAt >= 0 ? ggufAt : firstIndexMatching(lines, LLAMA_CPP_MODEL_LOAD_ERROR);
  if (loadAt >= 0) {
    return { kind: "model_load_error", label: "the model file does not load", hint: hints.modelLoadError, line: loadAt, detail: null };
  }
  return null;
}

function diagnose(input: ClassifyInput, lines: readonly string[], rawLines: readonly string[], family: EngineFamily | null): Diagnosis {
  const hints = failureHintBook(family);
  const find = (pattern: RegExp) => lastIndexMatching(lines, (line) => pattern.test(line));
  const exceptionAt = decisiveException(lines);
  // llama.cpp's first error line is where its trouble began; the last ones only say it is exiting.
  const fallbackAt = exceptionAt >= 0 ? exceptionAt : family === "llama.cpp" ? firstLlamaCppError(rawLines) : -1;
  const fallback = fallbackAt >= 0 ? fallbackAt : null;

  const allocation = diagnoseAllocation(input, lines, hints);
  if (allocation?.kind === "cuda_oom" || allocation?.kind === "gpu_oom") return allocation;

  if (input.timedOut) {
    return {
      kind: "startup_timeout",
      label: `no healthy answer within ${input.timedOut.afterS} s`,
      hint: hints.startupTimeout(input.timedOut.afterS),
      line: fallback,
      detail: null,
    };
  }

  const exit = input.exit;
  const killed = exit?.exitCode === 137 || exit?.signal === "SIGKILL";
  const hostOomAt = find(HOST_OOM);
  if (exit?.oomKilled || hostOomAt >= 0 || (killed && /^Killed$/.test(lines[lines.length - 1]?.trim() ?? ""))) {
    return {
      kind: "host_oom",
      label: "host out of memory (killed by the OOM killer)",
      hint: hints.hostOomKilled,
      line: hostOomAt >= 0 ? hostOomAt : null,
      detail: null,
    };
  }
  if (allocation) return allocation;

  const ncclAt = find(NCCL_ERROR);
  if (ncclAt >= 0) {
    const decisive = exceptionAt >= 0 && NCCL_ERROR.test(lines[exceptionAt] ?? "") ? exceptionAt : ncclAt;
    return { kind: "nccl_error", label: "NCCL error (multi-GPU communication)", hint: NCCL_HINT, line: decisive, detail: null };
  }

  const importAt = lastIndexMatching(
    lines,
    (line) => IMPORT_ERROR_TYPES.test(EXCEPTION_LINE.exec(line)?.[1]?.split(".").pop() ?? "") || MODULE_ATTRIBUTE_ERROR.test(line),
  );
  if (importAt >= 0) {
    const type = EXCEPTION_LINE.exec(lines[importAt] ?? "")?.[1] ?? "ImportError";
    const location = frameLocation(lines, importAt);
    return {
      kind: "import_error",
      label: `Python ${type.split(".").pop() ?? type}: the engine's code does not load`,
      hint: hints.importError(location),
      line: importAt,
      detail: null,
    };
  }

  // An assertion names what broke and where; a fatal signal is the exit itself. Both before the launch
  // checks: a crash is the cause whatever else the log said on its way there.
  const crash = readCrashReport(lines, exit);
  if (crash) {
    const hintInput = { role: input.role, location: crash.location, deviceAssert: crash.source === "cuda_device_assert" };
    return {
      kind: crash.kind,
      label: crash.label,
      hint: crash.kind === "assertion_failed" ? hints.assertion(hintInput) : hints.fatalSignal(hintInput),
      line: crash.line,
      detail: null,
      summary: crash.summary,
      frames: crash.frames,
    };
  }

  const portAt = Math.max(find(PORT_IN_USE), find(LLAMA_CPP_PORT_IN_USE));
  if (portAt >= 0) {
    return {
      kind: "port_in_use",
      label: "port already in use",
      hint: hints.portInUse(portFrom(lines, portAt), input.runtime ?? null),
      line: portAt,
      detail: null,
    };
  }

  const launch = diagnoseLaunch(lines, hints);
  if (launch) return launch;
  const missing = input.stage === "startup" ? exit?.missingModel : undefined;
  if (missing) {
    // The log does not say why, but the model the command names is not where it points.
    const where = missing.where === "container" ? "in the engine's container" : "on the runner";
    return {
      kind: "model_not_found",
      label: "the model file is not there",
      hint: hints.modelNotFound,
      line: null,
      detail: null,
      summary:
        `${missing.flag} ${missing.path}: no such file or folder ${where} ` +
        `(found by speedgate after the engine exited; its log does not say why)`,
    };
  }

  if (killed) {
    return {
      kind: "host_oom",
      label: "killed by SIGKILL (most likely the host's OOM killer)",
      hint: hints.hostOomKilled,
      line: fallback,
      detail: null,
    };
  }

  return {
    kind: "exited",
    label: exit?.exitCode === 0 ? "exited cleanly (code 0) while it should be serving" : describeExit(exit),
    hint: hints.exited,
    line: fallback,
    detail: null,
  };
}

function summaryFor(diagnosis: Diagnosis, lines: readonly string[], input: ClassifyInput): string {
  if (diagnosis.summary) return capSummary(diagnosis.summary);
  let summary: string | undefined;
  if (diagnosis.line !== null) summary = lines[diagnosis.line];
  if (!summary) {
    const lastWords = lastIndexMatching(lines, (line) => line.trim() !== "");
    summary = lastWords >= 0 ? lines[lastWords] : undefined;
  }
  const base =
    summary ??
    (input.timedOut
      ? `no HTTP 200 from the health check within ${input.timedOut.afterS} s`
      : `the engine ${input.exit?.signal ? "was " : ""}${describeExit(input.exit)} without printing anything`);
  if (diagnosis.detail !== null) return capSummary(`${base} (${diagnosis.detail})`);
  if (diagnosis.kind === "import_error" && diagnosis.line !== null) {
    const location = frameLocation(lines, diagnosis.line);
    if (location) return capSummary(`${base} (${location})`);
  }
  return capSummary(base);
}

/**
 * Turns an engine's exit and last words into the card's failure: what kind, in plain words, the one
 * line that decided it, and what to try. Pure; the same for the process and Docker runtimes.
 */
export function classifyFailure(input: ClassifyInput): EngineFailure {
  const lost = input.exit?.infrastructure;
  if (lost) {
    // The engine's last words say nothing here: what ran it went away, whatever the log shows.
    return {
      engine: input.role,
      stage: input.stage,
      kind: "infrastructure",
      label: lost.label,
      summary: capSummary(lost.summary),
      hint: lost.hint,
      exitCode: input.exit?.exitCode ?? null,
      signal: input.exit?.signal ?? null,
      logTail: input.logLines.slice(-FAILURE_LOG_TAIL_LINES).map(cleanLogLine),
    };
  }
  const lines = input.logLines.map(stripLogPrefix);
  const family = input.engine ?? (looksLikeLlamaCpp(lines) ? "llama.cpp" : null);
  const diagnosis = diagnose(input, lines, input.logLines, family);
  return {
    engine: input.role,
    stage: input.stage,
    kind: diagnosis.kind,
    label: diagnosis.label,
    summary: summaryFor(diagnosis, lines, input),
    hint: diagnosis.hint,
    exitCode: input.exit?.exitCode ?? null,
    signal: input.exit?.signal ?? null,
    logTail: input.logLines.slice(-FAILURE_LOG_TAIL_LINES).map(cleanLogLine),
    ...(diagnosis.frames && diagnosis.frames.length > 0 ? { frames: diagnosis.frames.map(cleanLogLine) } : {}),
  };
}
