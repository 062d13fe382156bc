import { anyOf } from "./any-of-patterns.js";
import type { EngineExit } from "../vocabulary/engine-exit.js";
import { EXCEPTION_LINE, TRACEBACK_FRAME, WRAPPER_EXCEPTION } from "./failure-patterns.js";

/*
 * How engines crash: an assertion or an abort that says what broke and where (ggml's GGML_ASSERT and
 * GGML_ABORT, C's assert, a CUDA kernel's assertion behind PyTorch's "device-side assert triggered",
 * Python's AssertionError, an uncaught C++ exception), or a fatal signal (a segmentation fault, a bus
 * error, an illegal instruction) with whatever frames the engine printed. Read from the log as printed
 * after stripLogPrefix; the corpus these were written against is test/failure/fixtures/crashes/.
 */

/** What crashed it, for the hint: each names its own way to get a better stack. */
export type CrashSource = "ggml" | "c_assert" | "cuda_device_assert" | "python_assert" | "cpp_terminate" | "python_fatal" | "signal";

export interface CrashReport {
  kind: "assertion_failed" | "fatal_signal";
  source: CrashSource;
  label: string;
  /** Index (in the stripped lines) of the line that says what broke, or null when only the exit says it. */
  line: number | null;
  /** The summary when the line alone is not all of it (a Python assertion's file, line and statement). */
  summary: string | null;
  /** Where it broke, for the hint: "src/llama-context.cpp:1722", "sglang/srt/managers/scheduler.py:24". */
  location: string | null;
  /** The first frames that name the engine's own code, innermost first, as the card shows them. */
  frames: string[];
}

/** Frames the card shows: enough to see the caller of the broken invariant, few enough to read at a glance. */
export const MAX_CRASH_FRAMES = 5;

/** ggml.c's ggml_abort: "<file>:<line>: GGML_ASSERT(<expression>) failed", or "<file>:<line>: <message>" for GGML_ABORT. */
const GGML_ASSERT = /^(\S+?):(\d+): GGML_ASSERT\((.*)\) failed$/;
const SOURCE_LINE_MESSAGE = /^(\S+\.(?:c|cc|cpp|cxx|cu|cuh|h|hpp|m|mm|metal)):(\d+): (.+)$/;
/** glibc's __assert_fail, "prog: file.c:12: func: Assertion `x' failed.", and a CUDA kernel's own, which PyTorch's kernels print. */
const C_ASSERT = /(?:^|: )(\S+?):(\d+): .*?Assertion [`'](.*)[`'] failed\.?$/;
/** What c10 raises after a kernel's assertion (torch.AcceleratorError in newer PyTorch). */
const DEVICE_SIDE_ASSERT = /^(?:[\w.]+(?:Error|Exception)): CUDA error: device-side assert triggered/;
const CPP_TERMINATE = /^terminate called after throwing an instance of '([^']+)'$/;
const CPP_WHAT = /^\s*what\(\):\s+(.*)$/;
/** CPython's faulthandler: "Fatal Python error: Segmentation fault", then each thread's frames. */
const PYTHON_FATAL = /^Fatal Python error: (Segmentation fault|Bus error|Illegal instruction|Floating point exception|Aborted)\b/;
/** What a shell, a signal handler (absl's, c10's, an engine's own) or a launcher prints when a process dies of a signal. */
const SIGNAL_REPORT = anyOf([
  /\b(Segmentation fault|Bus error|Illegal instruction|Floating point exception)(?: \(core dumped\))?/,
  /\*\*\* (SIG[A-Z]+) received\b/,
  /Caught signal \d+ \((Segmentation fault|Bus error|Illegal instruction|Floating point exception)\)/,
]);

/** Lines of gdb's that only say what gdb did, between ggml's assertion and its frames. */
const GDB_BOOKKEEPING = anyOf([
  /^\[New LWP \d+\]$/,
  /^\[New Thread /,
  /^\[Thread debugging using libthread_db/,
  /^Using host libthread_db library/,
  /^\[Inferior \d+ \(process \d+\) detached\]$/,
  /^\d+\t/,
]);
/** A gdb frame: "#3  0x000055af726304f6 in llama_context::output_reserve(int) ()" or "#0  f (x=1) at a.cpp:12". */
const GDB_FRAME = /^#(\d+)\s+(?:0x[0-9a-f]+ in )?(.+?)(?: \(.*\))?(?: at (\S+:\d+))?$/;
/** glibc's backtrace_symbols_fd: "/path/llama-server(+0x865618)[0x562c1a05a618]" or "./crash(main+0xe2)[0x…]". */
const SYMBOL_FRAME = /^(\S+?)\(([^)]*)\)\s*\[0x[0-9a-f]+\]$/;
/** faulthandler's frame: '  File "/x/block_table.py", line 13 in copy_block_ids'. */
const FAULTHANDLER_FRAME = /^\s*File "([^"]+)", line (\d+) in (.+)$/;

/** Frames of the abort and signal machinery, the C library and the runtime, never the engine's own code. */
const MACHINERY = anyOf([
  /^(?:__GI_|__libc_|__pthread_|__restore_rt|__assert|__cxa_|__gnu_cxx::|std::terminate)\b/,
  /^(?:raise|abort|_start|__wait4|wait4|waitpid|start_thread|clone3?)\b/,
  /ggml_print_backtrace/,
  /ggml_abort/,
  /backtrace/,
  /fatal_signal/,
  /signal_handler/,
  /^\?\?$/,
]);
const SYSTEM_LIBRARY = /(?:^|\/)(?:libc|libpthread|libstdc\+\+|libgcc_s|ld-linux[\w-]*)\.so|sysdeps\//;
/** Python frames outside the engine: the interpreter's own modules, PyTorch's internals, frozen importlib. */
const NOT_ENGINE_PYTHON = /^<frozen |\/lib\/python3\.\d+\/(?!site-packages|dist-packages)|\/torch\/(?!_inductor\/)|^<string>$/;

function lastIndex(lines: readonly string[], test: (line: string) => boolean, from = 0): number {
  for (let index = lines.length - 1; index >= from; index--) if (test(lines[index] ?? "")) return index;
  return -1;
}

/** How many last lines may hold a signal's report: a handler's frames (up to 32) and a launcher's lines after it. */
const SIGNAL_REPORT_WINDOW = 60;

/** A path from where the engine's own tree starts, not the builder's checkout: "src/llama-context.cpp". */
export function shortenSourcePath(path: string): string {
  const packaged = /\/(?:site|dist)-packages\/(.+)$/.exec(path);
  if (packaged?.[1]) return packaged[1];
  // Not the path's first folder: "/src/llama.cpp/…" is where a checkout lives, not the tree's own src/.
  const tree = /^\/.+?\/((?:src|ggml|tools|common|include|csrc|sgl-kernel|sglang|vllm|aten|c10)\/.+)$/.exec(path);
  return tree?.[1] ?? path;
}

/** The native frames after `from` (gdb's or backtrace_symbols'), innermost first, without the abort machinery. */
function nativeFrames(lines: readonly string[], from: number): string[] {
  const frames: string[] = [];
  for (let index = from; index < lines.length && frames.length < MAX_CRASH_FRAMES; index++) {
    const line = (lines[index] ?? "").trim();
    if (line === "" || GDB_BOOKKEEPING.test(line)) continue;
    const gdb = GDB_FRAME.exec(line);
    if (gdb) {
      const [, number, name = "", at] = gdb;
      if (MACHINERY.test(name) || (at && SYSTEM_LIBRARY.test(at))) continue;
      frames.push(`#${number} ${name}${at ? ` at ${shortenSourcePath(at)}` : ""}`);
      continue;
    }
    const symbol = SYMBOL_FRAME.exec(line);
    if (symbol) {
      const [, binary = "", place = ""] = symbol;
      if (SYSTEM_LIBRARY.test(binary) || MACHINERY.test(place.replace(/\+0x[0-9a-f]+$/, ""))) continue;
      frames.push(`${binary.split("/").pop() ?? binary}(${place})`);
      continue;
    }
    // Anything else after the frames began (the server's next log line) ends them.
    if (frames.length > 0) break;
  }
  return frames;
}

/** Python frames ending at `at` (a traceback's, outermost first), the innermost engine frames kept, innermost first. */
function tracebackFrames(lines: readonly string[], at: number): string[] {
  const frames: string[] = [];
  for (let index = at - 1; index >= 0 && frames.length < MAX_CRASH_FRAMES; index--) {
    const line = lines[index] ?? "";
    if (/Traceback \(most recent call last\)/.test(line)) break;
    const frame = TRACEBACK_FRAME.exec(line);
    if (!frame) continue;
    const [, path = "", number, name] = frame;
    if (!NOT_ENGINE_PYTHON.test(path)) frames.push(`${shortenSourcePath(path)}:${number}${name ? ` in ${name}` : ""}`);
  }
  return frames;
}

/** faulthandler's frames after `from` (most recent first already), the engine's own kept. */
function faulthandlerFrames(lines: readonly string[], from: number): string[] {
  const frames: string[] = [];
  for (let index = from + 1; index < lines.length && frames.length < MAX_CRASH_FRAMES; index++) {
    const frame = FAULTHANDLER_FRAME.exec(lines[index] ?? "");
    if (!frame) continue;
    const [, path = "", number, name] = frame;
    if (!NOT_ENGINE_PYTHON.test(path)) frames.push(`${shortenSourcePath(path)}:${number} in ${name}`);
  }
  return frames;
}

/** A C or CUDA assertion line: the location and the expression. */
function readCAssert(lines: readonly string[], at: number): { location: string; expression: string } | null {
  const match = C_ASSERT.exec(lines[at] ?? "");
  return match ? { location: `${shortenSourcePath(match[1] ?? "")}:${match[2]}`, expression: match[3] ?? "" } : null;
}

function isAbort(exit: EngineExit | null): boolean {
  return exit?.signal === "SIGABRT" || exit?.exitCode === 134;
}

/**
 * ggml's frames after its assertion. Without gdb, glibc names no function of a binary linked without
 * -rdynamic ("llama-server(+0x865618)"): the first three are then ggml's own machinery
 * (ggml_print_backtrace_symbols, ggml_print_backtrace, ggml_abort), as gdb's backtrace of the same
 * abort shows, and are left out like gdb's named ones.
 */
function ggmlFrames(lines: readonly string[], from: number): string[] {
  const start = firstFrameIndex(lines, from);
  const unnamed = (line: string): boolean => /^\S+\(\+0x[0-9a-f]+\)\s*\[0x[0-9a-f]+\]$/.test(line.trim());
  const machinery = start >= 0 && lines.slice(start, start + GGML_ABORT_FRAMES).filter(unnamed).length === GGML_ABORT_FRAMES;
  return nativeFrames(lines, machinery ? start + GGML_ABORT_FRAMES : from);
}

const GGML_ABORT_FRAMES = 3;

/** The first native frame at or after `from`, past gdb's bookkeeping; -1 when none follows. */
function firstFrameIndex(lines: readonly string[], from: number): number {
  for (let index = from; index < lines.length; index++) {
    const line = (lines[index] ?? "").trim();
    if (GDB_FRAME.test(line) || SYMBOL_FRAME.test(line)) return index;
    if (line !== "" && !GDB_BOOKKEEPING.test(line)) return -1;
  }
  return -1;
}

/** ggml's assertion or abort, recognised by its shape and by what follows it (a backtrace, or the abort itself). */
function readGgmlAbort(lines: readonly string[], exit: EngineExit | null): CrashReport | null {
  let at = lastIndex(lines, (line) => GGML_ASSERT.test(line));
  const asserted = at >= 0;
  if (!asserted) {
    // GGML_ABORT's message is free text: only a source location followed by ggml's backtrace, or the abort, says it is one.
    at = lastIndex(lines, (line) => SOURCE_LINE_MESSAGE.test(line));
    if (at < 0) return null;
    const next = lines.slice(at + 1, at + 4).join("\n");
    if (!isAbort(exit) && !/ggml_print_backtrace|ggml_abort|\[New LWP|^#\d|\(\+0x[0-9a-f]+\)\[/m.test(next)) return null;
  }
  const match = (asserted ? GGML_ASSERT : SOURCE_LINE_MESSAGE).exec(lines[at] ?? "");
  const location = match ? `${shortenSourcePath(match[1] ?? "")}:${match[2]}` : null;
  return {
    kind: "assertion_failed",
    source: "ggml",
    label: asserted ? "assertion failed (GGML_ASSERT)" : "aborted (GGML_ABORT)",
    line: at,
    summary: null,
    location,
    frames: ggmlFrames(lines, at + 1),
  };
}

function readAssertion(lines: readonly string[], exit: EngineExit | null): CrashReport | null {
  const ggml = readGgmlAbort(lines, exit);
  if (ggml) return ggml;

  const deviceAt = lastIndex(lines, (line) => DEVICE_SIDE_ASSERT.test(line));
  if (deviceAt >= 0) {
    // The kernel's own assertion, printed before the error, names the expression and the file; the error only that one failed.
    const kernelAt = lastIndex(lines.slice(0, deviceAt), (line) => C_ASSERT.test(line));
    const kernel = kernelAt >= 0 ? readCAssert(lines, kernelAt) : null;
    return {
      kind: "assertion_failed",
      source: "cuda_device_assert",
      label: "CUDA device-side assert triggered",
      line: kernel ? kernelAt : deviceAt,
      summary: null,
      location: kernel?.location ?? null,
      frames: tracebackFrames(lines, deviceAt),
    };
  }

  const cAt = lastIndex(lines, (line) => C_ASSERT.test(line));
  if (cAt >= 0) {
    return {
      kind: "assertion_failed",
      source: "c_assert",
      label: "assertion failed (C assert)",
      line: cAt,
      summary: null,
      location: readCAssert(lines, cAt)?.location ?? null,
      frames: nativeFrames(lines, cAt + 1),
    };
  }

  // Only the engine's last exception: an AssertionError it caught, logged and served on after is not why it ended.
  const pythonAt = lastIndex(lines, (line) => EXCEPTION_LINE.test(line) && !WRAPPER_EXCEPTION.test(line));
  if (
    pythonAt >= 0 &&
    EXCEPTION_LINE.exec(lines[pythonAt] ?? "")?.[1]
      ?.split(".")
      .pop() === "AssertionError"
  ) {
    const frameAt = lastIndex(lines.slice(0, pythonAt), (line) => TRACEBACK_FRAME.test(line));
    const frame = frameAt >= 0 ? TRACEBACK_FRAME.exec(lines[frameAt] ?? "") : null;
    const location = frame ? `${shortenSourcePath(frame[1] ?? "")}:${frame[2]}` : null;
    // The statement is printed under its frame (Python 3.11 marks it with carets on the line after).
    const statement = frameAt >= 0 ? (lines[frameAt + 1] ?? "").trim() : "";
    const where = location ? ` (${location}${statement.startsWith("assert") ? `: ${statement}` : ""})` : "";
    return {
      kind: "assertion_failed",
      source: "python_assert",
      label: "Python AssertionError",
      line: pythonAt,
      summary: `${(lines[pythonAt] ?? "").trim()}${where}`,
      location,
      frames: tracebackFrames(lines, pythonAt),
    };
  }

  const terminateAt = lastIndex(lines, (line) => CPP_TERMINATE.test(line));
  if (terminateAt >= 0) {
    const what = CPP_WHAT.exec(lines[terminateAt + 1] ?? "")?.[1];
    const type = CPP_TERMINATE.exec(lines[terminateAt] ?? "")?.[1] ?? "an exception";
    return {
      kind: "assertion_failed",
      source: "cpp_terminate",
      label: "aborted: an uncaught C++ exception",
      line: terminateAt,
      summary: what ? `${type}: ${what}` : null,
      location: null,
      frames: nativeFrames(lines, terminateAt + 2),
    };
  }
  return null;
}

const SIGNAL_WORDS: Record<string, string> = {
  SIGSEGV: "segmentation fault",
  SIGBUS: "bus error",
  SIGILL: "illegal instruction",
  SIGFPE: "floating point exception",
  SIGABRT: "abort",
};
/** Exit codes of a shell or a container whose process died of the signal: 128 + its number. */
const SIGNAL_EXIT_CODES: Record<number, string> = { 139: "SIGSEGV", 135: "SIGBUS", 132: "SIGILL", 136: "SIGFPE", 134: "SIGABRT" };

function fatalSignalOf(exit: EngineExit | null): string | null {
  if (exit?.signal && SIGNAL_WORDS[exit.signal]) return exit.signal;
  return exit?.exitCode != null ? (SIGNAL_EXIT_CODES[exit.exitCode] ?? null) : null;
}

function readFatalSignal(lines: readonly string[], exit: EngineExit | null): CrashReport | null {
  const pythonAt = lastIndex(lines, (line) => PYTHON_FATAL.test(line));
  if (pythonAt >= 0) {
    return {
      kind: "fatal_signal",
      source: "python_fatal",
      label: `${(PYTHON_FATAL.exec(lines[pythonAt] ?? "")?.[1] ?? "fatal signal").toLowerCase()} (fatal Python error)`,
      line: pythonAt,
      summary: null,
      location: null,
      frames: faulthandlerFrames(lines, pythonAt),
    };
  }
  // Near the end only: a signal's report is the last thing printed, and the words alone can appear in any warning.
  const reportFrom = Math.max(0, lines.length - SIGNAL_REPORT_WINDOW);
  const reportAt = lastIndex(lines, (line) => SIGNAL_REPORT.test(line), reportFrom);
  const signal = fatalSignalOf(exit);
  if (reportAt < 0 && !signal) return null;
  const report = reportAt >= 0 ? SIGNAL_REPORT.exec(lines[reportAt] ?? "") : null;
  const words = (
    report?.[1] ??
    report?.[3] ??
    (report?.[2] ? SIGNAL_WORDS[report[2]] : undefined) ??
    (signal ? SIGNAL_WORDS[signal] : undefined) ??
    "fatal signal"
  ).toLowerCase();
  const frames = reportAt >= 0 ? nativeFrames(lines, reportAt + 1) : [];
  return {
    kind: "fatal_signal",
    source: "signal",
    label:
      signal === "SIGABRT" && reportAt < 0 ? "aborted (SIGABRT) without an assertion message" : `${words}${signal ? ` (${signal})` : ""}`,
    line: reportAt >= 0 ? reportAt : null,
    summary: reportAt >= 0 ? null : `the engine was killed by ${signal ?? "a fatal signal"} (${words}) without printing why`,
    location: frames[0] ?? null,
    frames,
  };
}

/**
 * The crash in a log and an exit, or null when the engine did not crash: an assertion first (its line
 * says what broke; a segmentation fault may follow it in another thread), then a fatal signal.
 */
export function readCrashReport(lines: readonly string[], exit: EngineExit | null): CrashReport | null {
  return readAssertion(lines, exit) ?? readFatalSignal(lines, exit);
}
