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

/*
 * What a renderer could turn into a link in text outside code: a URL with a scheme or a leading `//`,
 * a `www.` host, an e-mail address, a bare domain (GitHub links none, but markdown-it's linkify and
 * mail clients do, and a 2-letter TLD is enough for them: `engine.py` is Paraguay) or an IPv4
 * address. A word holding any of these is shown as code, which no renderer links; a file name or a
 * dotted Python name in a code span reads as well as in plain text.
 */
const LINKABLE = /:\/\/|^\/\/|www\.|@[^@]*\.|\.\p{Cf}*\p{L}[\p{Cf}\p{M}]*\p{L}|\d\.\d+\.\d+\.\d/iu;

/**
 * A word: what lies between spaces, backticks (a code span cannot hold one safely in every renderer),
 * pipes (a table's cell breaks) and angle brackets (HTML, escaped as text).
 */
const WORD = /[^\s`|<>]+/gu;

/** Punctuation around a linkable word that reads as the sentence's, not the link's: kept outside the code span. */
const LEADING = /^[(["'{*_~]+/u;
const TRAILING = /[.,:;!?'")\]}*_~]+$/u;

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

function isLetterOrDigit(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
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
      // Emphasis, strike-through and GitHub's math: `*`, `~` and `$` always, `_` unless inside a word, where it never emphasises.
      .replace(/[*~$]/g, "\\$&")
      .replace(/_/g, (underscore, at: number, all: string) =>
        isLetterOrDigit(all[at - 1]) && isLetterOrDigit(all[at + 1]) ? underscore : "\\_",
      )
  );
}

/** One word of text outside code: a linkable one as a code span (its sentence punctuation outside), any other escaped. */
function escapeWord(word: string): string {
  if (!LINKABLE.test(word)) return escapeInlineText(word);
  const lead = LEADING.exec(word)?.[0] ?? "";
  const rest = word.slice(lead.length);
  const trail = TRAILING.exec(rest)?.[0] ?? "";
  const core = rest.slice(0, rest.length - trail.length);
  if (!LINKABLE.test(core)) return escapeInlineText(word);
  // A word holds no backtick, pipe, angle bracket or space, so one backtick fences it and nothing inside needs escaping.
  return `${escapeInlineText(lead)}\`${core}\`${escapeInlineText(trail)}`;
}

/**
 * Untrusted text for a table cell, a heading or a list item: one line, no HTML, no Markdown link,
 * code span, emphasis or strike-through of its own, no table break, no mention or reference, and no
 * link: every word a renderer could link (URLs, `www.` hosts, e-mail addresses, bare domains) is a
 * code span, which shows it literally and copies it whole.
 */
export function escapeInline(text: string): string {
  const clean = cleanLogLine(text).replace(/\n/g, " ");
  let out = "";
  let last = 0;
  for (const match of clean.matchAll(WORD)) {
    out += escapeInlineText(clean.slice(last, match.index)) + escapeWord(match[0]);
    last = match.index + match[0].length;
  }
  // At the start of a list item these would open a heading, a list or a thematic break the app did not write.
  const escaped = out + escapeInlineText(clean.slice(last));
  return /^\s*-(?:\s*-){2,}\s*$/.test(escaped)
    ? escaped.replace("-", "\\-")
    : escaped.replace(/^(\s*)([#+-])(?=\s|$)/, "$1\\$2").replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, "$1\\$2");
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
