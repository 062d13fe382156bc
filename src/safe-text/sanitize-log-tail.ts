// CSI (colours, cursor moves), OSC (titles, hyperlinks) and the lone two-byte escapes terminals accept.
// eslint-disable-next-line no-control-regex
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// Other C0 controls except tab; a carriage return that redraws a progress bar keeps only the last frame.
// eslint-disable-next-line no-control-regex
const CONTROL_PATTERN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export const MAX_LOG_LINE_CHARS = 2_000;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, "");
}

/** One printed line as a reader saw it last: colours gone, progress-bar redraws collapsed. */
export function cleanLogLine(line: string): string {
  const lastFrame = line.includes("\r")
    ? (line
        .split("\r")
        .filter((frame) => frame !== "")
        .pop() ?? "")
    : line;
  const clean = stripAnsi(lastFrame).replace(CONTROL_PATTERN, "");
  if (clean.length <= MAX_LOG_LINE_CHARS) return clean;
  return `${clean.slice(0, MAX_LOG_LINE_CHARS)}… (${clean.length - MAX_LOG_LINE_CHARS} more characters)`;
}

/** Splits raw engine output into clean lines, keeping the last `maxLines` (the newest matter most). */
export function toLogTail(raw: string, maxLines = 200): string[] {
  const lines = raw.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.slice(-maxLines).map(cleanLogLine);
}

/** A code fence longer than any backtick run in the text, so the log cannot close it early. */
export function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) {
    for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  }
  return "`".repeat(Math.max(3, longest + 1));
}
