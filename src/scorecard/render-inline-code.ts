import { cleanLogLine } from "./sanitize-log-tail.js";

/** A code span holding `code` verbatim in a table cell: a fence longer than any backtick run inside, pipes escaped for the table. */
export function codeSpan(code: string): string {
  const content = cleanLogLine(code).replace(/\n/g, " ").replace(/\|/g, "\\|");
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  // CommonMark strips one space from each end when both are there, and a backtick at an end would join the fence.
  const pad = content.startsWith("`") || content.endsWith("`") || (content.startsWith(" ") && content.endsWith(" ")) ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}

/**
 * Text stored with Markdown code spans (hints: "run `ss -ltnp`") for a table cell: the spans become
 * code, everything else goes through `escapeText`, and a backtick without its partner stays a literal
 * character. A span opens with a run of backticks and closes at the next run of the same length, as
 * in CommonMark, so the card renders the code the way the text meant it.
 */
export function renderWithCodeSpans(text: string, escapeText: (plain: string) => string): string {
  const out: string[] = [];
  let plain = "";
  let index = 0;
  while (index < text.length) {
    if (text[index] !== "`") {
      plain += text[index];
      index++;
      continue;
    }
    let runEnd = index;
    while (text[runEnd] === "`") runEnd++;
    const run = runEnd - index;
    let close = -1;
    let search = runEnd;
    while (search < text.length) {
      const next = text.indexOf("`", search);
      if (next === -1) break;
      let nextEnd = next;
      while (text[nextEnd] === "`") nextEnd++;
      if (nextEnd - next === run) {
        close = next;
        break;
      }
      search = nextEnd;
    }
    if (close === -1) {
      plain += text.slice(index, runEnd);
      index = runEnd;
      continue;
    }
    if (plain !== "") out.push(escapeText(plain));
    plain = "";
    let code = text.slice(runEnd, close);
    if (code.length > 1 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
    out.push(codeSpan(code));
    index = close + run;
  }
  if (plain !== "") out.push(escapeText(plain));
  return out.join("");
}
