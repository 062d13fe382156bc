import { formatTimes } from "../scoring/format-speedup.js";
import { describeVerdict } from "../scorecard/render/describe-card.js";
import { renderMarkdown } from "../scorecard/render/render-markdown.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import { escapeHtml } from "./escape-html.js";
import type { PageLinks } from "./page-links.js";
import { renderCardMarkdownHtml } from "./render-card-markdown-html.js";
import { renderPageFrame } from "./render-page-frame.js";

export interface CardPageInput {
  id: string;
  repository: string;
  pullRequest: number | null;
  headSha: string;
  runId: number;
  runAttempt: number;
  recordedAt: Date;
  card: Scorecard;
  links: PageLinks;
}

function figure(label: string, value: string, test: string): string {
  return (
    `<div class="figure"><div class="label">${escapeHtml(label)}</div>` +
    `<div class="value" data-figure="${escapeHtml(test)}">${escapeHtml(value)}</div></div>`
  );
}

/**
 * A round's card page: its figures first (the verdict, the round score and its interval, the prompts
 * that counted, where it ran), then the whole card as the comment renders it, without a limit: every
 * prompt row, every scenario, every log line the card keeps, and its JSON.
 */
export function renderCardPage(input: CardPageInput): string {
  const { card, links } = input;
  const verdict = describeVerdict(card);
  const verdictClass = verdict.outcome === "none" ? "none" : verdict.passed ? "pass" : "fail";
  const range = card.scoreInterval;
  const interval = range ? `${formatTimes(range.low)} – ${formatTimes(range.high)} (${Math.round(range.confidence * 100)}%)` : "—";
  const where = input.pullRequest === null ? "main" : `pull request #${input.pullRequest}`;
  const whole = renderMarkdown(card, { maxChars: Number.MAX_SAFE_INTEGER });
  const body = `
<h1>Card of ${escapeHtml(input.repository)} ${escapeHtml(where)}</h1>
<p class="lead">Commit <span class="sha">${escapeHtml(input.headSha.slice(0, 12))}</span>, run ${input.runId} attempt ${input.runAttempt},
stored ${escapeHtml(input.recordedAt.toISOString().slice(0, 16).replace("T", " "))} UTC ·
<a href="${escapeHtml(links.cardJson(input.id))}">scorecard.json</a></p>
<p class="${verdictClass}" data-figure="verdict">${escapeHtml(verdict.headline)}</p>
<div class="figures">
${figure("Round score", formatTimes(card.roundScore), "round-score")}
${figure("Interval", interval, "interval")}
${figure("Prompts scored", `${card.promptsScored} of ${card.promptsTotal}`, "prompts")}
${figure("Bar", formatTimes(card.gate.bar), "bar")}
${figure("Runner", card.provenance.runner ?? "—", "runner")}
${figure("GPU", card.provenance.gpu ?? "—", "gpu")}
</div>
<h2>The whole card</h2>
<article class="card-body">
${renderCardMarkdownHtml(whole)}
</article>`;
  return renderPageFrame({
    title: `speedgate: ${input.repository} ${where} ${formatTimes(card.roundScore)}`,
    links,
    repository: input.repository,
    body,
    charts: false,
  });
}
