import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import MarkdownIt from "markdown-it";
import { renderAlerts } from "../../src/history/render-card-alerts.js";

export { renderAlerts };

const require = createRequire(import.meta.url);

/** The width of a pull request comment on github.com at a desktop window, the card's frame included. */
export const COMMENT_WIDTH_PX = 880;
/** What a reader sees of a comment before scrolling: the first screen the card is designed for. */
export const FIRST_SCREEN_PX = 900;

/** Local files only: the page must render without a network, as GitHub's would with its own copies. */
export function assetUrls(): { css: string; mermaid: string } {
  return {
    css: pathToFileURL(require.resolve("github-markdown-css/github-markdown-light.css")).href,
    mermaid: pathToFileURL(require.resolve("mermaid/dist/mermaid.min.js")).href,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/*
 * Runs in the page once the charts are drawn: the comment's height, the text a reader sees in its
 * first `limit` pixels (a collapsed <details> shows only its summary), and where each top-level
 * block of the card starts and ends. Base64 of UTF-8 JSON on <body>, so --dump-dom carries it unescaped.
 */
const MEASURE = `
function measureCard(limit) {
  const frame = document.querySelector(".comment");
  const top = frame.getBoundingClientRect().top;
  const range = document.createRange();
  const bottomOf = (node, end) => {
    range.setStart(node, 0);
    range.setEnd(node, end);
    let bottom = -Infinity;
    for (const rect of range.getClientRects()) if (rect.width > 0 || rect.height > 0) bottom = Math.max(bottom, rect.bottom - top);
    return bottom;
  };
  // Text inside a closed <details> is not shown (only its summary is), whatever the layout says of it.
  const hidden = (element) => {
    const closed = element.closest("details:not([open])");
    return closed !== null && element.closest("summary")?.parentElement !== closed;
  };
  const blockOf = (element) => {
    let block = element;
    while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
    return block;
  };
  let seen = "";
  let lastBlock = null;
  const walker = document.createTreeWalker(frame, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.data.trim() === "" || !node.parentElement || hidden(node.parentElement)) continue;
    const whole = bottomOf(node, node.data.length);
    if (whole === -Infinity) continue;
    let end = node.data.length;
    if (whole > limit) {
      // Cut inside the node: the longest start of it whose lines all end above the limit.
      let low = 0, high = node.data.length;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (bottomOf(node, mid) <= limit) low = mid; else high = mid - 1;
      }
      end = low;
    }
    if (end === 0) continue;
    // Inline pieces of one block (a code span in a sentence) join as the reader sees them; blocks are apart.
    const block = blockOf(node.parentElement);
    seen += (block === lastBlock ? "" : " ") + node.data.slice(0, end);
    lastBlock = block;
  }
  const blocks = [...document.querySelectorAll(".markdown-body > *")].map((element) => {
    const rect = element.getBoundingClientRect();
    const label =
      element.tagName === "DETAILS" ? (element.querySelector("summary")?.textContent ?? "")
      : element.matches("pre.mermaid") ? \`chart: \${element.querySelector("svg text")?.textContent ?? ""}\`
      : (element.textContent ?? "");
    return {
      tag: element.tagName.toLowerCase(),
      top: Math.round(rect.top - top),
      bottom: Math.round(rect.bottom - top),
      text: label.replace(/\\s+/g, " ").trim().slice(0, 90),
    };
  });
  const result = {
    heightPx: Math.ceil(frame.getBoundingClientRect().height),
    firstScreenText: seen.replace(/\\s+/g, " ").trim(),
    blocks,
  };
  const bytes = new TextEncoder().encode(JSON.stringify(result));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  document.body.dataset.measure = btoa(binary);
}
`;

/**
 * The card as a pull request shows it: CommonMark with GitHub's tables, the raw HTML GitHub keeps
 * (details, summary, sub), GitHub's Markdown stylesheet, and Mermaid blocks drawn by Mermaid, in a
 * comment frame as wide as GitHub's. When the charts are drawn the page records its height and what
 * its first screen holds on <body>, so a screenshot can be cut to fit and checked.
 */
export function renderCardHtml(
  markdown: string,
  options: { widthPx?: number; openDetails?: boolean; firstScreenPx?: number } = {},
): string {
  const md = new MarkdownIt({ html: true, linkify: false });
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, index, settings, env, self) => {
    const token = tokens[index];
    if (token?.info.trim() === "mermaid") return `<pre class="mermaid">${escapeHtml(token.content)}</pre>\n`;
    return fence ? fence(tokens, index, settings, env, self) : self.renderToken(tokens, index, settings);
  };
  const rendered = renderAlerts(md.render(markdown));
  const body = options.openDetails ? rendered.replace(/<details>/g, "<details open>") : rendered;
  const { css, mermaid } = assetUrls();
  const width = options.widthPx ?? COMMENT_WIDTH_PX;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="stylesheet" href="${css}">
<style>
  body { margin: 0; background: #ffffff; }
  .comment { box-sizing: border-box; width: ${width}px; margin: 16px; border: 1px solid #d0d7de; border-radius: 6px; }
  .comment-header {
    padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d0d7de; border-radius: 6px 6px 0 0;
    font: 14px -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #656d76;
  }
  .markdown-body { padding: 16px; }
  pre.mermaid { background: #ffffff; }
  .markdown-body .markdown-alert { padding: 8px 16px; margin-bottom: 16px; border-left: 0.25em solid; color: inherit; }
  .markdown-body .markdown-alert > :last-child { margin-bottom: 0; }
  .markdown-body .markdown-alert-title { font-weight: 500; margin-bottom: 4px; }
</style>
</head>
<body>
<div class="comment"><div class="comment-header"><strong>speedgate</strong> bot commented</div>
<article class="markdown-body">
${body}
</article></div>
<script src="${mermaid}"></script>
<script>
${MEASURE}
  mermaid.initialize({ startOnLoad: false, theme: "default", securityLevel: "strict" });
  mermaid.run({ querySelector: "pre.mermaid" })
    .catch((error) => { document.body.dataset.error = String(error); })
    .finally(() => {
      document.body.dataset.height = String(Math.ceil(document.documentElement.scrollHeight));
      measureCard(${options.firstScreenPx ?? FIRST_SCREEN_PX});
    });
</script>
</body>
</html>
`;
}
