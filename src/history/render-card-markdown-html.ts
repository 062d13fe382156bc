import MarkdownIt from "markdown-it";
import { escapeHtml } from "./escape-html.js";
import { renderAlerts } from "./render-card-alerts.js";

/*
 * The card's Markdown as HTML for its page. GitHub sanitizes what a comment holds; this page does it
 * itself: of the raw HTML in the Markdown only the bare tags the card writes (details, summary, sub,
 * br, …) are kept, with no attribute but `open`, and every other tag is shown as text. The page's
 * Content-Security-Policy (no inline script, images from the app only) stands behind it.
 */
const KEPT_TAG = /^<\/?(details|summary|sub|sup|br|b|strong|i|em|code|kbd|ins|del|p|span|div|ul|ol|li)(\s+open)?\s*\/?>$/i;

function keepSafeTags(html: string): string {
  // The card's own markers (<!-- speedgate -->) are dropped, as GitHub hides them.
  return html.replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]*>?/g, (tag) => (KEPT_TAG.test(tag) ? tag : escapeHtml(tag)));
}

const markdown = new MarkdownIt({ html: true, linkify: false });
const blockRule = markdown.renderer.rules.html_block;
const inlineRule = markdown.renderer.rules.html_inline;
markdown.renderer.rules.html_block = (tokens, index, options, env, self) =>
  keepSafeTags(blockRule ? blockRule(tokens, index, options, env, self) : (tokens[index]?.content ?? ""));
markdown.renderer.rules.html_inline = (tokens, index, options, env, self) =>
  keepSafeTags(inlineRule ? inlineRule(tokens, index, options, env, self) : (tokens[index]?.content ?? ""));
// Links go to http(s) and the page's own anchors only (markdown-it already refuses javascript: and data:).
markdown.validateLink = (url: string): boolean => /^(https?:\/\/|#|\/)/i.test(url.trim());

/** The card's Markdown, whole (nothing folded away or cut), as HTML safe to put in the page. */
export function renderCardMarkdownHtml(text: string): string {
  return renderAlerts(markdown.render(text)).replace(/ style="[^"]*"/g, "");
}
