import { renderScenarioBars } from "./render-scenario-bars.js";
import { describeVerdict } from "./describe-card.js";
import { breakHtmlComments, escapeInline as escapeCell } from "../../safe-text/escape-engine-text.js";
import { renderFactsLine } from "./render-facts-line.js";
import { renderFailureSection } from "./render-failure-section.js";
import { renderGpuBusyWarning, renderGpuStateTable } from "./render-gpu-state.js";
import { renderFold, renderKeyValueTable } from "./render-key-value-table.js";
import { renderLeftOutFiles } from "./render-left-out-files.js";
import { renderMethodSection } from "./render-method-section.js";
import { renderPartingEvidence } from "./render-parting-evidence.js";
import { renderPromptsSection } from "./render-prompts-section.js";
import { renderQualityLead, renderQualitySection } from "./render-quality-section.js";
import { renderScoreChart } from "./render-score-chart.js";
import { renderSpeedSection } from "./render-speed-section.js";
import { renderSummaryTable } from "./render-summary-table.js";
import { renderAnswerVariation } from "./render-answer-variation.js";
import { renderQueueBoundNotice } from "./render-queue-bound-notice.js";
import { renderUnchangedNotice } from "./render-unchanged-notice.js";
import { renderCommitsSection } from "./render-commits-section.js";
import {
  type ScenarioDetail,
  renderScenarioFolds,
  renderScenarioQueueNotice,
  renderScenarioRoundReasons,
  renderScenarioSharedPromptsNotice,
  renderScenarioTable,
} from "./render-scenario-sections.js";
import { type ScenariosDescription, describeScenarios } from "./describe-scenarios.js";
import type { Scorecard } from "../scorecard-schema.js";

export const CARD_MARKER = "<!-- speedgate -->";
/** GitHub refuses comments over 65,536 characters and check summaries over 65,535; keep a margin. */
export const MAX_CARD_CHARS = 60_000;
/** Prompt rows kept before the oldest log lines are given up to fit the size limit. */
const KEEP_PROMPT_ROWS = 10;
/** The shortest a prompt's table row can be ("|  | scored | — | — / — | — / — | — / — |  |"). */
const MIN_PROMPT_ROW_CHARS = 40;

/** Untrusted text outside code (src/safe-text/escape-engine-text.ts): the one escaping every cell goes through. */
export { escapeInline as escapeCell } from "../../safe-text/escape-engine-text.js";
export { troubleshootingLink } from "./render-failure-section.js";
export { SCORING_RULE_SENTENCE } from "./render-method-section.js";

interface RenderLimits {
  promptRows: number;
  logLines: number;
}

/** What a converted card says of where its prompt scores came from; nothing for a card written as it is. */
function describeConversion(card: Scorecard): string {
  if (!card.convertedFrom) return "";
  const why = "which kept no times at the compared length: its prompt scores are that card's";
  return ` (converted from a version-${card.convertedFrom} card, ${why})`;
}
/** Everything that names where the card came from, folded: images, patch, runner, GPU state before each engine started. */
function provenanceSection(card: Scorecard): string {
  const p = card.provenance;
  const code = (value: string | null): string => (value ? `\`${breakHtmlComments(value.replace(/`/g, "")).replace(/\|/g, "\\|")}\`` : "—");
  const rows = [
    ["Engine", escapeCell(card.engine)],
    ["Baseline image", code(p.baselineImage)],
    ["Baseline image ID", code(p.baselineImageId)],
    ["Image digest", code(p.imageDigest)],
    ["Patch hash", code(p.patchHash)],
    ["Runner", p.runner ? escapeCell(p.runner) : "—"],
    ["GPU", p.gpu ? escapeCell(p.gpu) : "—"],
    ["Scorer", `speedgate ${escapeCell(card.speedgateVersion)}, card schema ${card.schemaVersion}${describeConversion(card)}`],
  ];
  if (card.shard) rows.push(["Shard", `${card.shard.index} of ${card.shard.count}`]);
  if (card.source?.runUrl) rows.push(["Run", escapeCell(card.source.runUrl)]);
  const gpu = renderGpuStateTable(card);
  return renderFold("Provenance and GPU state", `${renderKeyValueTable(rows)}${gpu === "" ? "" : `\n\n${gpu}`}`);
}

/*
 * The layout. The first screen holds the verdict and why: the headline, a facts line, then the
 * failure with who should act when an engine failed (before any score: a mid-round crash is the news,
 * not the score of what ran before it), then the score table (score, interval, prompts counted, the
 * speed line, the gate, what now). Warnings a reader must not miss follow (a busy GPU, files the patch
 * left out), then the chart. Everything else is folded: the speed table, the prompts, how the score was measured, provenance.
 */
function renderWith(card: Scorecard, limits: RenderLimits): string {
  const { headline } = describeVerdict(card, { firstReasonOnly: true });
  const summary = renderSummaryTable(card);
  // The headline names the failure: its section leads, with who acts, before any score (which measured what ran before it).
  const failure = renderFailureSection(card, { logLines: limits.logLines, heading: false });
  const sections = [
    CARD_MARKER,
    `## ${escapeCell(headline)}`,
    renderFactsLine(card),
    failure,
    summary,
    renderQueueBoundNotice(card),
    renderUnchangedNotice(card),
    renderGpuBusyWarning(card),
    renderLeftOutFiles(card),
    renderScoreChart(card),
    // Why some unscored prompts are no evidence against the patch: the baseline's own answers varied.
    renderAnswerVariation(card),
    renderSpeedSection(card),
    // Which questions each engine got right that the other did not: ids only, the set stays on the runner.
    renderQualitySection(card),
    renderPartingEvidence(card),
    renderPromptsSection(card, limits.promptRows),
    renderMethodSection(card),
    // Base/head mode only: what each engine was made from, the baseline cache and the builds.
    renderCommitsSection(card),
    provenanceSection(card),
  ];
  return `${sections.filter((section) => section !== "").join("\n\n")}\n`;
}

interface ScenarioLimits {
  logLines: number;
  detail: ScenarioDetail;
}

/*
 * The layout of a card with scenarios. The first screen holds the verdict over every scenario: the
 * headline naming which passed, improved and regressed, the facts line, then a table of the scenarios
 * (or, when nothing was scored or someone else failed, the failure first, as on any card). The round's
 * warnings follow, then each scenario's own card folded under its name and score, and what the
 * scenarios share once: how the round was measured and where its time went, commits, provenance.
 */
function renderScenariosWith(card: Scorecard, scenarios: ScenariosDescription, limits: ScenarioLimits): string {
  const failure = renderFailureSection(card, { logLines: limits.logLines, heading: !scenarios.leadsWithFailure });
  const sections = [
    CARD_MARKER,
    `## ${escapeCell(scenarios.headline)}`,
    renderFactsLine(card),
    scenarios.leadsWithFailure ? failure : "",
    renderScenarioTable(scenarios),
    renderScenarioBars(card),
    // The question set was answered in the starts every scenario shares: its rows once, for the round.
    renderQualityLead(card),
    renderScenarioRoundReasons(scenarios),
    renderScenarioQueueNotice(scenarios),
    renderScenarioSharedPromptsNotice(scenarios),
    renderUnchangedNotice(card),
    renderGpuBusyWarning(card),
    renderLeftOutFiles(card),
    scenarios.leadsWithFailure ? "" : failure,
    renderScenarioFolds(scenarios, limits.detail),
    renderMethodSection(card),
    renderCommitsSection(card),
    provenanceSection(card),
  ];
  return `${sections.filter((section) => section !== "").join("\n\n")}\n`;
}

/**
 * A card with scenarios within `maxChars`: each scenario's fold gives way first (its prompt rows, then
 * its chart, then all but its score table, then the fold itself), then the oldest log lines of a
 * failure, which the scenarios share and a reader needs more than any one scenario's details.
 */
function renderScenariosWithin(card: Scorecard, scenarios: ScenariosDescription, maxChars: number): string {
  const most = Math.max(...scenarios.rows.map((row) => row.card.prompts.length));
  const allRows = Math.min(most, Math.floor(maxChars / MIN_PROMPT_ROW_CHARS));
  const allLines = card.failure?.logTail.length ?? 0;
  const render = (detail: ScenarioDetail, logLines = allLines): string => renderScenariosWith(card, scenarios, { logLines, detail });
  const fits = (detail: ScenarioDetail, logLines = allLines): boolean => render(detail, logLines).length <= maxChars;
  if (most === allRows && fits({ level: "full", charts: true, promptRows: allRows }))
    return render({ level: "full", charts: true, promptRows: allRows });
  for (const charts of [true, false]) {
    if (!fits({ level: "full", charts, promptRows: 0 })) continue;
    const rows = largestFitting(0, allRows, (n) => fits({ level: "full", charts, promptRows: n }));
    return render({ level: "full", charts, promptRows: rows });
  }
  for (const level of ["brief", "none"] as const) {
    if (fits({ level, charts: false, promptRows: 0 })) return render({ level, charts: false, promptRows: 0 });
  }
  const none: ScenarioDetail = { level: "none", charts: false, promptRows: 0 };
  const lines = largestFitting(0, allLines, (n) => fits(none, n));
  const rendered = render(none, lines);
  return rendered.length <= maxChars
    ? rendered
    : `${rendered.slice(0, maxChars - 80)}\n\n…card cut to fit GitHub's size limit; see scorecard.json.\n`;
}

/** Largest n in [low, high] for which fits(n) holds, given that fits is monotone and fits(low) holds. */
function largestFitting(low: number, high: number, fits: (n: number) => boolean): number {
  let best = low;
  let lo = low;
  let hi = high;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (fits(mid)) {
      best = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/**
 * The card as people read it on the pull request. Whatever the input, the result stays under
 * `maxChars`: prompt rows past the first few go first, then the oldest log lines, and the card
 * says what it left out.
 */
export function renderMarkdown(card: Scorecard, options: { maxChars?: number } = {}): string {
  const maxChars = options.maxChars ?? MAX_CARD_CHARS;
  const scenarios = describeScenarios(card);
  if (scenarios) return renderScenariosWithin(card, scenarios, maxChars);
  // No more rows than could ever fit are rendered: a card of 20,000 prompts would otherwise render its
  // whole table at every step of the search below, minutes of work for the app.
  const allRows = Math.min(card.prompts.length, Math.floor(maxChars / MIN_PROMPT_ROW_CHARS));
  const allLines = card.failure?.logTail.length ?? 0;
  if (allRows === card.prompts.length) {
    const full = renderWith(card, { promptRows: allRows, logLines: allLines });
    if (full.length <= maxChars) return full;
  }

  const fits = (limits: RenderLimits): boolean => renderWith(card, limits).length <= maxChars;
  const keepRows = Math.min(allRows, KEEP_PROMPT_ROWS);
  if (fits({ promptRows: keepRows, logLines: allLines })) {
    const rows = largestFitting(keepRows, allRows, (n) => fits({ promptRows: n, logLines: allLines }));
    return renderWith(card, { promptRows: rows, logLines: allLines });
  }
  if (fits({ promptRows: keepRows, logLines: 0 })) {
    const lines = largestFitting(0, allLines, (n) => fits({ promptRows: keepRows, logLines: n }));
    return renderWith(card, { promptRows: keepRows, logLines: lines });
  }
  const rows = largestFitting(0, keepRows, (n) => fits({ promptRows: n, logLines: 0 }));
  const rendered = renderWith(card, { promptRows: rows, logLines: 0 });
  // Only absurd single fields (schema-capped) can still overflow; cut hard rather than be refused by GitHub.
  return rendered.length <= maxChars
    ? rendered
    : `${rendered.slice(0, maxChars - 80)}\n\n…card cut to fit GitHub's size limit; see scorecard.json.\n`;
}
