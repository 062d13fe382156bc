import MarkdownIt from "markdown-it";
import type { FakeCheckRun, FakeComment } from "../fake-github/fake-github-server.js";
import type { FakePull } from "../fake-github/serve-repository.js";
import { renderAlerts } from "../../scripts/lib/render-card-html.js";

/** Where the page's stylesheet and Mermaid (the card's charts) are served from, by the fake itself: no network. */
export const ASSET_PATHS = { css: "/_try-app/github-markdown.css", mermaid: "/_try-app/mermaid.min.js" } as const;

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function markdown(): MarkdownIt {
  // GitHub keeps the raw HTML a card uses (details, summary, sub): so does this page.
  const md = new MarkdownIt({ html: true, linkify: false });
  const fence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, index, settings, env, self) => {
    const token = tokens[index];
    if (token?.info.trim() === "mermaid") return `<pre class="mermaid">${escapeHtml(token.content)}</pre>\n`;
    return fence ? fence(tokens, index, settings, env, self) : self.renderToken(tokens, index, settings);
  };
  return md;
}

function checkMark(check: FakeCheckRun): string {
  if (check.status !== "completed") return "🟡";
  return check.conclusion === "success" ? "✅" : check.conclusion === "failure" ? "❌" : "⚪";
}

/**
 * The pull request as github.com shows what the app did to it: its comments (the speedgate card rendered as GitHub
 * renders Markdown, alerts and charts included), its `speedgate` check runs with their titles and summaries, and a
 * comment box, so `/rescore` can be written from the page.
 */
export function renderPullRequestPage(input: {
  repository: string;
  pull: FakePull;
  title: string;
  comments: readonly FakeComment[];
  checks: readonly FakeCheckRun[];
}): string {
  const md = markdown();
  const { pull } = input;
  const comments = input.comments
    .filter((comment) => comment.issueNumber === pull.number)
    .map(
      (comment) =>
        `<div class="comment" data-login="${escapeHtml(comment.login)}"><div class="comment-header"><strong>` +
        `${escapeHtml(comment.login)}</strong> commented at ${escapeHtml(comment.createdAt)}</div>` +
        `<article class="markdown-body">${renderAlerts(md.render(comment.body))}</article></div>`,
    )
    .join("\n");
  const checks = input.checks
    .filter((check) => check.headSha === pull.headSha)
    .map(
      (check) =>
        `<li class="check" data-status="${escapeHtml(check.status)}" data-conclusion="${escapeHtml(check.conclusion ?? "")}">` +
        `${checkMark(check)} <strong>${escapeHtml(check.name)}</strong> — ${escapeHtml(check.status)}` +
        `${check.conclusion ? ` (${escapeHtml(check.conclusion)})` : ""}: ${escapeHtml(check.title ?? "")}` +
        (check.summary
          ? `<details><summary>Summary</summary><article class="markdown-body">${renderAlerts(md.render(check.summary))}` +
            "</article></details>"
          : "") +
        "</li>",
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(input.title)} · Pull Request #${pull.number} · ${escapeHtml(input.repository)}</title>
<link rel="stylesheet" href="${ASSET_PATHS.css}">
<style>
  body { margin: 24px; font: 14px -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; max-width: 920px; }
  .comment { border: 1px solid #d0d7de; border-radius: 6px; margin: 16px 0; }
  .comment-header { padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d0d7de; color: #656d76; }
  .markdown-body { padding: 16px; }
  .checks { border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 16px 8px 32px; }
  textarea { width: 100%; height: 4em; }
  .markdown-body .markdown-alert { padding: 8px 16px; margin-bottom: 16px; border-left: 0.25em solid; color: inherit; }
  .markdown-body .markdown-alert-title { font-weight: 500; margin-bottom: 4px; }
</style>
</head>
<body>
<h1>${escapeHtml(input.title)} <span style="color:#656d76">#${pull.number}</span></h1>
<p>${escapeHtml(pull.author)} wants to merge <code>${escapeHtml(pull.headBranch)}</code> (head <code>${pull.headSha.slice(0, 7)}</code>)
into ${escapeHtml(input.repository)}. This page is speedgate's local GitHub fake (npm run try-app): nothing here reached github.com.</p>
<h2>Checks</h2>
<ul class="checks">${checks || "<li>No checks yet.</li>"}</ul>
<h2>Conversation</h2>
${comments || "<p>No comments yet.</p>"}
<form method="post" action="/${escapeHtml(input.repository)}/pull/${pull.number}/comments">
<p><label for="body">Comment as <strong>maintainer</strong> (write permission): <code>/rescore</code> scores the head again.</label></p>
<textarea id="body" name="body">/rescore</textarea>
<p><button type="submit">Comment</button></p>
</form>
<script src="${ASSET_PATHS.mermaid}"></script>
<script>mermaid.initialize({ startOnLoad: true, theme: "default", securityLevel: "strict" });</script>
</body>
</html>
`;
}
