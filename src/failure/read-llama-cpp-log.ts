import { anyOf } from "./any-of-patterns.js";
import { stripAnsi } from "../safe-text/sanitize-log-tail.js";

/*
 * llama.cpp's log (common/log.cpp): with its prefix on (llama-server's default) each line starts
 * with the time since start and a level letter, "0.00.013.024 E srv  load_model: …".
 */

/** The elapsed-time and level prefix: minutes.seconds.milliseconds.microseconds, then D, I, W or E. */
export const LLAMA_CPP_LINE_PREFIX = /^\d+\.\d{2}\.\d{3}\.\d{3} ([DIWE]) /;

/** What only llama.cpp prints: its own functions' names before a message, its build line, its argument and bind errors. */
const LLAMA_CPP_SPEAKERS = anyOf([
  /^(?:llama_\w+|ggml_\w+|gguf_\w+|common_\w+|llm_load_\w+): /,
  /^build: \d+ \(/,
  /^error: (?:invalid|unknown) argument: /,
  /couldn't bind HTTP server socket/,
]);

/** Whether a log is llama.cpp's, for an engine the round config does not name as llama.cpp. */
export function looksLikeLlamaCpp(strippedLines: readonly string[]): boolean {
  return strippedLines.some((line) => LLAMA_CPP_SPEAKERS.test(line));
}

/**
 * The index of the first error-level line, where llama.cpp's trouble began (the last ones only say it
 * is exiting), leaving out --fit's report that it could not fit the model, which precedes the real one.
 * -1 when the log has no level letters (--no-log-prefix).
 */
export function firstLlamaCppError(rawLines: readonly string[]): number {
  for (let index = 0; index < rawLines.length; index++) {
    const line = stripAnsi(rawLines[index] ?? "");
    if (LLAMA_CPP_LINE_PREFIX.exec(line)?.[1] !== "E") continue;
    if (/common_fit_params: /.test(line)) continue;
    return index;
  }
  return -1;
}
