import MarkdownIt from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";

/*
 * The links and the emphasis a Markdown card renders to, found the way a reader sees them: with
 * GitHub's renderer settings as markdown-it has them (CommonMark, GFM tables and strike-through, raw
 * HTML, and linkify, here with its fuzzy e-mail and IP address matching on too: it links more than
 * GitHub's autolinks, bare domains included, so a card that passes here passes there). A card's own
 * links and emphasis are found as well; a test compares them with what the same card renders to
 * without the engine's text, or looks for the engine's words in them.
 */

const renderer = new MarkdownIt({ html: true, linkify: true });
renderer.linkify.set({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true });

export interface RenderedMarkup {
  /** A link (its href), emphasis, strong emphasis or strike-through, from Markdown or from raw HTML. */
  kind: "link" | "em" | "strong" | "s";
  /** The link's href; for emphasis, its text. */
  target: string;
  /** The text it holds, code spans included. */
  text: string;
}

const OPENERS: Record<string, RenderedMarkup["kind"]> = { link_open: "link", em_open: "em", strong_open: "strong", s_open: "s" };
const HTML_TAGS: Record<string, RenderedMarkup["kind"]> = { a: "link", em: "em", i: "em", strong: "strong", b: "strong", s: "s", del: "s" };

function collect(tokens: Token[], found: RenderedMarkup[]): void {
  const open: Array<{ markup: RenderedMarkup; close: string }> = [];
  for (const token of tokens) {
    const kind = OPENERS[token.type];
    const tag = token.type === "html_inline" ? /^<([a-z]+)[\s>]/i.exec(token.content)?.[1]?.toLowerCase() : undefined;
    const htmlKind = tag === undefined ? undefined : HTML_TAGS[tag];
    if (kind || htmlKind) {
      const markup = { kind: (kind ?? htmlKind) as RenderedMarkup["kind"], target: token.attrGet("href") ?? token.content, text: "" };
      open.push({ markup, close: kind ? token.type.replace(/_open$/, "_close") : `</${tag ?? ""}>` });
      continue;
    }
    const last = open[open.length - 1];
    if (last && (token.type === last.close || (token.type === "html_inline" && token.content.toLowerCase().startsWith(last.close)))) {
      open.pop();
      if (last.markup.kind !== "link") last.markup.target = last.markup.text;
      found.push(last.markup);
      continue;
    }
    if (token.type === "text" || token.type === "code_inline") for (const each of open) each.markup.text += token.content;
    if (token.children) collect(token.children, found);
  }
}

/** Every link, emphasis, strong emphasis and strike-through in the rendered Markdown, in order. */
export function findRenderedMarkup(markdown: string): RenderedMarkup[] {
  const found: RenderedMarkup[] = [];
  collect(renderer.parse(markdown, {}), found);
  return found;
}

/**
 * The text of the rendered Markdown as a reader sees it, code spans included, with the zero-width
 * spaces that break mentions taken out: what "shows as literal text" is checked against.
 */
export function renderedText(markdown: string): string {
  const parts: string[] = [];
  const walk = (tokens: Token[]): void => {
    for (const token of tokens) {
      if (token.type === "text" || token.type === "code_inline") parts.push(token.content);
      if (token.type === "softbreak" || token.type === "hardbreak") parts.push("\n");
      if (token.children) walk(token.children);
    }
  };
  walk(renderer.parse(markdown, {}));
  return parts.join("").replaceAll("\u200b", "");
}
