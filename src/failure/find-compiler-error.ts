/*
 * A compiler's output ends with its counts and caret lines ("1 error generated.", "|  ^~"); what a
 * reader needs is its first error, with the file and line it names. GCC and Clang print
 * "file:line:col: error: …" (also "fatal error:"), nvcc "file(line): error: …", MSVC
 * "file(line): error C2065: …", rustc "error[E0425]: …" with " --> file:line:col" below it.
 */
const LOCATED_ERROR = /^\s*(?:In file included from .*)?\S.*?(?::\d+(?::\d+)?:|\(\d+(?:,\d+)?\):) (?:fatal )?error(?: [A-Z]+\d+)?:/;
const RUST_ERROR = /^error(?:\[E\d+\])?: /;
const RUST_LOCATION = /^\s*--> (\S+:\d+(?::\d+)?)/;

/** The first error a compiler printed, with its file and line; null when the output holds none. */
export function findCompilerError(lines: readonly string[]): string | null {
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (LOCATED_ERROR.test(line)) return line.trim();
    if (RUST_ERROR.test(line) && !/aborting due to/.test(line)) {
      const location = RUST_LOCATION.exec(lines[index + 1] ?? "")?.[1];
      return location ? `${location}: ${line.trim()}` : line.trim();
    }
  }
  return null;
}
