import { decideVerdict } from "../decide-verdict.js";
import { describeFailureEvent } from "./describe-card.js";
import { escapeCodeLine, escapeInline } from "../../safe-text/escape-engine-text.js";
import { describeWhoActs } from "./describe-who-acts.js";
import { codeSpan, renderWithCodeSpans } from "../../safe-text/render-inline-code.js";
import { renderFold, renderKeyValueTable } from "./render-key-value-table.js";
import { fenceFor } from "../../safe-text/sanitize-log-tail.js";
import type { Scorecard } from "../scorecard-schema.js";

/** The troubleshooting page for a failure kind, linked when the card knows where speedgate's docs are. */
export function troubleshootingLink(card: Scorecard, kind: string): string {
  const page = `${kind}.md`;
  if (card.docsBaseUrl) return `[troubleshooting: ${kind}](${card.docsBaseUrl}${page})`;
  return `troubleshooting: \`docs/troubleshooting/${page}\` in speedgate's repository`;
}

/** The round's runs: with scenarios, the most any scenario had (a scenario with fewer runs is benchmarked in the first ones only). */
export function roundRuns(card: Scorecard): number {
  return Math.max(card.settings.runs, ...(card.scenarios ?? []).map((scenario) => scenario.card.settings.runs));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Who should act, before any table: the author when the patch needs work, the runner's maintainers when something else failed. */
function leadParagraph(card: Scorecard): string | null {
  const who = describeWhoActs(card);
  return who ? `**${escapeInline(who.lead)}** ${renderWithCodeSpans(who.text, escapeInline)}` : null;
}

/**
 * The failed engine, cause first: who should act and why (the author's paragraph, or the maintainers'),
 * then what failed, its error line and what to try, then the log tail folded. `heading` when a score
 * table stands above it; a card with no score leads with this section under its headline.
 */
export function renderFailureSection(card: Scorecard, options: { logLines: number; heading: boolean }): string {
  const failure = card.failure;
  if (!failure) return "";
  const exit = failure.exitCode !== null ? `exit ${failure.exitCode}` : failure.signal ? `signal ${failure.signal}` : null;
  const prompt = failure.prompt ? `, prompt ${failure.prompt.number} (${failure.prompt.id})` : "";
  const scenario = failure.scenario ? `, scenario ${failure.scenario}` : "";
  const where =
    `${failure.engine} engine at ` +
    `${failure.stage}${failure.run ? `, run ${failure.run} of ${roundRuns(card)}` : ""}${scenario}${prompt}`;
  const rows = [
    [
      "Failure",
      `\`${failure.kind}\`: ${escapeInline(failure.label)}; ${[where, exit]
        .filter((part) => part !== null)
        .map((part) => escapeInline(part))
        .join(", ")}`,
    ],
    ["Error", escapeInline(failure.summary)],
    // A crash's own frames, innermost first, one a line: where the broken invariant was called from.
    ...(failure.frames && failure.frames.length > 0 ? [["Frames", failure.frames.map(codeSpan).join("<br>")]] : []),
    // When the runner is at fault the engine's own hint is for a failure that repeats on a free GPU.
    [
      decideVerdict(card).cause === "runner" ? "If it fails on a free GPU" : "What to try",
      `${failure.hint ? `${renderWithCodeSpans(failure.hint, escapeInline)} ` : ""}(${troubleshootingLink(card, failure.kind)})`,
    ],
  ];
  const parts: string[] = [];
  if (options.heading) parts.push(`### ${failure.engine === "baseline" ? "⚠️" : "❌"} ${capitalize(describeFailureEvent(failure))}`);
  const lead = leadParagraph(card);
  if (lead) parts.push(lead);
  parts.push(renderKeyValueTable(rows));
  if (failure.logTail.length > 0) {
    const shown = failure.logTail.slice(Math.max(0, failure.logTail.length - options.logLines)).map(escapeCodeLine);
    const dropped = failure.logTail.length - shown.length;
    const fence = fenceFor(shown);
    const note = dropped > 0 ? ` (${dropped} older lines left out to fit GitHub's size limit)` : "";
    // Folded: the error row already holds the exception line; the tail is for digging further.
    parts.push(renderFold(`Log tail: last ${shown.length} lines${note}`, `${fence}text\n${shown.join("\n")}\n${fence}`));
  }
  return parts.join("\n\n");
}
