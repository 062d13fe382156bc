import { breakHtmlComments } from "./escape-engine-text.js";
import { cleanLogLine } from "./sanitize-log-tail.js";

/**
 * A code span holding `code` verbatim in a table cell: a fence longer than any backtick run inside,
 * pipes escaped for the table, and no `<!--` (the app reads the comment's raw text, code or not).
 */
export function codeSpan(code: string): string {
  const content = breakHtmlComments(cleanLogLine(code).replace(/\n/g, " ").replace(/\|/g, "\\|"));
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  // CommonMark strips one space from each end when both are there, and a backtick at an end would join the fence.
  const pad = content.startsWith("`") || content.endsWith("`") || (content.startsWith(" ") && content.endsWith(" ")) ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}

/**
 * Untrusted text (a process name, a file path from a traceback) placed inside text that
 * renderWithCodeSpans will render: its backticks stay characters and never open a code span, as a
 * backslash makes them in CommonMark.
 */
export function literalForCodeSpans(text: string): string {
  return text.replace(/[\\`]/g, "\\$&");
}

interface CodeSpanToken {
  value: string;
  /** A run of backticks that may open or close a code span; an escaped backtick is plain text. */
  fence: boolean;
}

function lexCodeSpans(text: string): CodeSpanToken[] {
  const tokens: CodeSpanToken[] = [];
  let plain = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index] ?? "";
    const next = text[index + 1];
    if (char === "\\" && (next === "`" || next === "\\")) {
      plain += next;
      index += 2;
    } else if (char === "`") {
      let runEnd = index;
      while (text[runEnd] === "`") runEnd++;
      if (plain !== "") tokens.push({ value: plain, fence: false });
      plain = "";
      tokens.push({ value: text.slice(index, runEnd), fence: true });
      index = runEnd;
    } else {
      plain += char;
      index++;
    }
  }
  if (plain !== "") tokens.push({ value: plain, fence: false });
  return tokens;
}

/**
 * Text stored with Markdown code spans (hints: "run `ss -ltnp`") for a table cell: the spans become
 * code, everything else goes through `escapeText`, and a backtick without its partner stays a literal
 * character. A span opens with a run of backticks and closes at the next run of the same length, as
 * in CommonMark, so the card renders the code the way the text meant it. A backslash before a
 * backtick or a backslash (literalForCodeSpans) makes that character plain text, in code or not.
 */
export function renderWithCodeSpans(text: string, escapeText: (plain: string) => string): string {
  const tokens = lexCodeSpans(text);
  const out: string[] = [];
  let plain = "";
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index];
    if (!token) break;
    const close = token.fence
      ? tokens.findIndex((other, at) => at > index && other.fence && other.value.length === token.value.length)
      : -1;
    if (close === -1) {
      plain += token.value;
      index++;
      continue;
    }
    if (plain !== "") out.push(escapeText(plain));
    plain = "";
    let code = tokens
      .slice(index + 1, close)
      .map((inner) => inner.value)
      .join("");
    if (code.length > 1 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
    out.push(codeSpan(code));
    index = close + 1;
  }
  if (plain !== "") out.push(escapeText(plain));
  return out.join("");
}
