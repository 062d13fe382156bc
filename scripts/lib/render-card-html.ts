import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import MarkdownIt from "markdown-it";

const require = createRequire(import.meta.url);

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

/**
 * The card as a pull request shows it: CommonMark with GitHub's tables, the raw HTML GitHub keeps
 * (details, summary), GitHub's Markdown stylesheet, and Mermaid blocks drawn by Mermaid. When the
 * charts are drawn the page records its height on <body>, so a screenshot can be cut to fit.
 */
export function renderCardHtml(markdown: string, options: { widthPx?: number; openDetails?: boolean } = {}): string {
  const md = new MarkdownIt({ html: true, linkify: false });
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, index, settings, env, self) => {
    const token = tokens[index];
    if (token?.info.trim() === "mermaid") return `<pre class="mermaid">${escapeHtml(token.content)}</pre>\n`;
    return fence ? fence(tokens, index, settings, env, self) : self.renderToken(tokens, index, settings);
  };
  const rendered = md.render(markdown);
  const body = options.openDetails ? rendered.replace(/<details>/g, "<details open>") : rendered;
  const { css, mermaid } = assetUrls();
  const width = options.widthPx ?? 900;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="stylesheet" href="${css}">
<style>
  body { margin: 0; background: #ffffff; }
  .comment { box-sizing: border-box; width: ${width}px; margin: 16px; border: 1px solid #d0d7de; border-radius: 6px; }
  .comment-header { padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d0d7de; font: 14px -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #656d76; border-radius: 6px 6px 0 0; }
  .markdown-body { padding: 16px; }
  pre.mermaid { background: #ffffff; }
</style>
</head>
<body>
<div class="comment"><div class="comment-header"><strong>speedgate</strong> bot commented</div>
<article class="markdown-body">
${body}
</article></div>
<script src="${mermaid}"></script>
<script>
  mermaid.initialize({ startOnLoad: false, theme: "default", securityLevel: "strict" });
  mermaid.run({ querySelector: "pre.mermaid" })
    .catch((error) => { document.body.dataset.error = String(error); })
    .finally(() => { document.body.dataset.height = String(Math.ceil(document.documentElement.scrollHeight)); });
</script>
</body>
</html>
`;
}
