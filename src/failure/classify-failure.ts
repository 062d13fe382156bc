import type { EngineExit } from "../engine/engine-runtime.js";
import { cleanLogLine } from "../scorecard/sanitize-log-tail.js";
import type { EngineFailure, EngineRole, FailureKind, FailureStage } from "./engine-failure.js";
import { EXITED_HINT, NCCL_HINT, cudaOomHint, hintFamily, hostOomHint, importErrorHint, portInUseHint, startupTimeoutHint } from "./failure-hints.js";
import {
  CUDA_OOM,
  EXCEPTION_LINE,
  HOST_OOM,
  IMPORT_ERROR_TYPES,
  KV_CACHE_OOM_MESSAGE,
  MODULE_ATTRIBUTE_ERROR,
  NCCL_ERROR,
  OOM_PHASES,
  type OomPhase,
  PORT_IN_USE,
  TRACEBACK_FRAME,
  TRACEBACK_START,
  WRAPPER_EXCEPTION,
} from "./failure-patterns.js";
import { stripLogPrefix } from "./strip-log-prefix.js";

export interface ClassifyInput {
  role: EngineRole;
  stage: FailureStage;
  exit: EngineExit | null;
  logLines: string[];
  timedOut?: { afterS: number };
  /** The round config's `engine`, so the hint names that engine's own flags. */
  engine?: string;
}

export const MAX_SUMMARY_CHARS = 1_000;
export const FAILURE_LOG_TAIL_LINES = 200;

interface Diagnosis {
  kind: FailureKind;
  label: string;
  hint: string;
  /** Index (in the stripped lines) of the line that decided it, for the summary. */
  line: number | null;
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
  const ownFrames = errorStart > 0 ? ownLine.slice(0, errorStart).split(/(?=File ")/).reverse() : [];
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
  const match = /(?::|port |, )(\d{2,5})\b/.exec(lines[at] ?? "");
  return match ? Number(match[1]) : null;
}

function diagnose(input: ClassifyInput, lines: readonly string[]): Diagnosis {
  const find = (pattern: RegExp) => lastIndexMatching(lines, (line) => pattern.test(line));
  const family = hintFamily(input.engine);
  const exceptionAt = decisiveException(lines);

  const oomAt = find(CUDA_OOM);
  if (oomAt >= 0) {
    const phase = oomPhase(lines, oomAt);
    const label = input.stage === "benchmark" && phase === "other" ? "CUDA out of memory while serving" : OOM_LABELS[phase];
    return { kind: "cuda_oom", label, hint: cudaOomHint(phase, family), line: oomAt };
  }

  if (input.timedOut) {
    return {
      kind: "startup_timeout",
      label: `no healthy answer within ${input.timedOut.afterS} s`,
      hint: startupTimeoutHint(input.timedOut.afterS),
      line: exceptionAt >= 0 ? exceptionAt : null,
    };
  }

  const exit = input.exit;
  const killed = exit?.exitCode === 137 || exit?.signal === "SIGKILL";
  const hostOomAt = find(HOST_OOM);
  if (exit?.oomKilled || hostOomAt >= 0 || (killed && /^Killed$/.test(lines[lines.length - 1]?.trim() ?? ""))) {
    return { kind: "host_oom", label: "host out of memory (killed by the OOM killer)", hint: hostOomHint(family), line: hostOomAt >= 0 ? hostOomAt : null };
  }

  const ncclAt = find(NCCL_ERROR);
  if (ncclAt >= 0) {
    const decisive = exceptionAt >= 0 && NCCL_ERROR.test(lines[exceptionAt] ?? "") ? exceptionAt : ncclAt;
    return { kind: "nccl_error", label: "NCCL error (multi-GPU communication)", hint: NCCL_HINT, line: decisive };
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
      hint: importErrorHint(location, family),
      line: importAt,
    };
  }

  const portAt = find(PORT_IN_USE);
  if (portAt >= 0) {
    return { kind: "port_in_use", label: "port already in use", hint: portInUseHint(portFrom(lines, portAt)), line: portAt };
  }

  if (killed) {
    return {
      kind: "host_oom",
      label: "killed by SIGKILL (most likely the host's OOM killer)",
      hint: hostOomHint(family),
      line: exceptionAt >= 0 ? exceptionAt : null,
    };
  }

  return {
    kind: "exited",
    label: exit?.exitCode === 0 ? "exited cleanly (code 0) while it should be serving" : describeExit(exit),
    hint: EXITED_HINT,
    line: exceptionAt >= 0 ? exceptionAt : null,
  };
}

function summaryFor(diagnosis: Diagnosis, lines: readonly string[], input: ClassifyInput): string {
  let summary: string | undefined;
  if (diagnosis.line !== null) summary = lines[diagnosis.line];
  if (!summary) {
    const lastWords = lastIndexMatching(lines, (line) => line.trim() !== "");
    summary = lastWords >= 0 ? lines[lastWords] : undefined;
  }
  const base = summary ?? (input.timedOut ? `no HTTP 200 from the health check within ${input.timedOut.afterS} s` : `the engine ${input.exit?.signal ? "was " : ""}${describeExit(input.exit)} without printing anything`);
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
  const diagnosis = diagnose(input, lines);
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
  };
}
