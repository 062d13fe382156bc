import { cleanLogLine } from "./sanitize-log-tail.js";

/*
 * Text on a card that speedgate did not write itself: an engine's log lines and error bodies, a
 * prompt's id, a reason, a file name from the pull request, anything read back from an artifact.
 * It lands in a comment that the app posts with its own name, so it must not notify anyone, link
 * an issue, open HTML or hide an HTML comment there. Every place on the card that shows such text
 * goes through one of the two functions below: `escapeInline` outside code, `escapeCodeLine` inside
 * a fenced block.
 */

/** U+200B: invisible, and it breaks GitHub's mention and reference patterns (the way Dependabot and Renovate do). */
export const ZERO_WIDTH_SPACE = "\u200b";

/**
 * A link to an issue, pull request, discussion or commit makes a cross-reference on the target as
 * `#N` does; with or without its scheme, on any host (GitHub Enterprise too). Other URLs stay links.
 */
const REFERENCE_URL =
  /(?:\bhttps?:\/\/|\bwww\.)?[\w.-]+\.[a-z]{2,}(?::\d+)?\/[^\s/]+\/[^\s/]+\/(?:issues|pull|pulls|discussions|commit|commits)\/\S*/gi;

/**
 * Breaks what GitHub would turn into a notification or a cross-reference in text outside code:
 * `@user` and `@org/team`, `#123`, `owner/repo#123`, `GH-123`. A zero-width space after `@`, `#`
 * and `GH-` keeps the text readable as it was. Issue and pull request URLs are escapeInline's to
 * put in code spans. Commit SHAs are left alone: GitHub links them without notifying anyone or
 * adding to a timeline.
 */
export function neutralizeReferences(text: string): string {
  return text
    .replace(/@(?=[\p{L}\p{N}_-])/gu, `@${ZERO_WIDTH_SPACE}`)
    .replace(/#(?=[\p{N}])/gu, `#${ZERO_WIDTH_SPACE}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1-${ZERO_WIDTH_SPACE}`);
}

function escapeInlineText(text: string): string {
  // References first: the entities added below carry a `#` of their own.
  return (
    neutralizeReferences(text)
      // A backslash would otherwise escape what follows it, and `\&lt;` shows "&lt;" instead of "\<".
      .replace(/\\/g, "\\\\")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/\|/g, "\\|")
      .replace(/`/g, "&#96;")
      .replace(/\[/g, "&#91;")
      .replace(/\n/g, " ")
  );
}

/** An issue or pull request URL shown as code: readable and copyable, never a link, never a reference. */
function codeSpan(url: string): string {
  return `\`${breakHtmlComments(url.replace(/`/g, "")).replace(/\|/g, "\\|")}\``;
}

/**
 * Untrusted text for a table cell, a heading or a list item: one line, no HTML, no Markdown link or
 * code span of its own, no table break, no mention or reference.
 */
export function escapeInline(text: string): string {
  const clean = cleanLogLine(text);
  let out = "";
  let last = 0;
  for (const match of clean.matchAll(REFERENCE_URL)) {
    out += escapeInlineText(clean.slice(last, match.index)) + codeSpan(match[0]);
    last = match.index + match[0].length;
  }
  return out + escapeInlineText(clean.slice(last));
}

/**
 * One line of untrusted text inside a fenced code block. Nothing there renders as Markdown or HTML,
 * but the comment's raw text is still read back by the app (its run stamp) and may be cut to fit
 * GitHub's size limit mid-block: so no `<!--` survives, even inside code.
 */
export function escapeCodeLine(line: string): string {
  return breakHtmlComments(cleanLogLine(line));
}

/** `<!--` and `-->` with a zero-width space inside, so they never open or close an HTML comment. */
export function breakHtmlComments(text: string): string {
  return text.replace(/<!/g, `<${ZERO_WIDTH_SPACE}!`).replace(/--(?=>)/g, `-${ZERO_WIDTH_SPACE}-`);
}
