import MarkdownIt from "markdown-it";
import type Token from "markdown-it/lib/token.mjs";

/*
 * What GitHub would turn into a notification or a cross-reference in a comment, found the way GitHub
 * finds them: in the text a CommonMark + GFM renderer leaves outside code, with HTML entities decoded
 * (so `&#64;user` counts: GitHub renders it back to `@user`), and in the links it makes.
 */

const renderer = new MarkdownIt({ html: true, linkify: true });

const PATTERNS: Array<[string, RegExp]> = [
  ["mention", /(^|[^\w`])@[A-Za-z0-9][\w-]*/],
  ["issue reference", /(^|[^\w&])#\d+/],
  ["cross-repository reference", /[\w.-]+\/[\w.-]+#\d+/],
  ["GH- reference", /\bGH-\d+/i],
];

function decode(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

function textOutsideCode(tokens: Token[], out: { text: string[]; hrefs: string[] }): void {
  for (const token of tokens) {
    if (token.type === "fence" || token.type === "code_block" || token.type === "code_inline") continue;
    if (token.type === "text") out.text.push(token.content);
    if (token.type === "html_inline" || token.type === "html_block") out.text.push(decode(token.content));
    if (token.type === "link_open") out.hrefs.push(token.attrGet("href") ?? "");
    if (token.children) textOutsideCode(token.children, out);
  }
}

/** Every mention, reference or issue link that survives in the rendered Markdown, described. */
export function findRenderedReferences(markdown: string): string[] {
  const out = { text: [] as string[], hrefs: [] as string[] };
  textOutsideCode(renderer.parse(markdown, {}), out);
  const found: string[] = [];
  for (const text of out.text) {
    for (const [what, pattern] of PATTERNS) {
      const match = pattern.exec(text);
      if (match) found.push(`${what}: ${JSON.stringify(match[0])} in ${JSON.stringify(text.slice(0, 120))}`);
    }
  }
  for (const href of out.hrefs) {
    if (/\/(issues|pull|pulls|discussions)\/\d/.test(href)) found.push(`issue link: ${href}`);
  }
  return found;
}
