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

// An issue or pull request URL makes a cross-reference on the target like `#N` does; other URLs stay links.
const REFERENCE_URL = /\b(https?):\/\/(?=[^\s/]+\/[^\s/]+\/[^\s/]+\/(?:issues|pull|pulls|discussions|commit)\/\w)/gi;
const WWW_REFERENCE_URL = /\bwww\.(?=[^\s/]+\/[^\s/]+\/[^\s/]+\/(?:issues|pull|pulls|discussions|commit)\/\w)/gi;

/**
 * Breaks what GitHub would turn into a notification or a cross-reference, outside code: `@user` and
 * `@org/team`, `#123`, `owner/repo#123`, `GH-123`, and full issue or pull request URLs. A zero-width
 * space after `@`, `#`, `GH-` and the URL's scheme keeps the text readable and copyable as it was shown.
 * Commit SHAs are left alone: GitHub links them without notifying anyone or adding to a timeline.
 */
export function neutralizeReferences(text: string): string {
  return text
    .replace(/@/g, `@${ZERO_WIDTH_SPACE}`)
    .replace(/#/g, `#${ZERO_WIDTH_SPACE}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1-${ZERO_WIDTH_SPACE}`)
    .replace(REFERENCE_URL, `$1:${ZERO_WIDTH_SPACE}//`)
    .replace(WWW_REFERENCE_URL, `www${ZERO_WIDTH_SPACE}.`);
}

/**
 * Untrusted text for a table cell, a heading or a list item: one line, no HTML, no Markdown link or
 * code span of its own, no table break, no mention or reference.
 */
export function escapeInline(text: string): string {
  // References first: the entities added below carry a `#` of their own.
  return neutralizeReferences(cleanLogLine(text))
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|")
    .replace(/`/g, "&#96;")
    .replace(/\[/g, "&#91;")
    .replace(/\n/g, " ");
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
