import { markdownTable } from "markdown-table";
import {
  describeFailureEvent,
  describeInterval,
  describeNoise,
  describeRuns,
  describeUnscored,
  describeVerdict,
  formatMs,
  formatPercent,
  formatScoreAgainstBar,
  formatTimes,
  formatRunScores,
} from "./describe-card.js";
import { countingSentence, integrityRows, promptReason } from "./describe-integrity.js";
import { explainCudaOom } from "./explain-cuda-oom.js";
import { renderGpuBusyWarning, renderGpuStateTable } from "./render-gpu-state.js";
import { renderWithCodeSpans } from "./render-inline-code.js";
import { renderScoreChart } from "./render-score-chart.js";
import { renderSpeedSection } from "./render-speed-section.js";
import { breakHtmlComments, escapeCodeLine, escapeInline as escapeCell } from "./escape-engine-text.js";
import { renderLeftOutFiles } from "./render-left-out-files.js";
import { renderCommitsSection } from "./render-commits-section.js";
import { fenceFor } from "./sanitize-log-tail.js";
import type { PromptResult, Scorecard } from "./scorecard-schema.js";

export const CARD_MARKER = "<!-- speedgate -->";
/** GitHub refuses comments over 65,536 characters and check summaries over 65,535; keep a margin. */
export const MAX_CARD_CHARS = 60_000;
const FOLD_PROMPTS_AFTER = 10;
/** The shortest a prompt's table row can be ("|  | scored | — | — / — | — / — | — / — |  |"). */
const MIN_PROMPT_ROW_CHARS = 40;

export const SCORING_RULE_SENTENCE =
  "The round score is the median, over prompts, of the candidate's end-to-end speedup against the baseline. " +
  "Both engines are compared at the same output token count, so a candidate that stops early cannot buy speed by answering less: " +
  "a prompt under the tolerance bar scores nothing and shows its gate reason. " +
  "With several runs, each prompt's speedups combine by their geometric mean, and a prompt left unscored in any run scores nothing. " +
  "The gate never passes when the candidate engine failed, when more than gate.maxUnscored of the prompts went unscored, or with fewer than gate.minPrompts prompts; " +
  "otherwise the interval's low end (not calibrated) or the round score (against the bar raised by the calibrated noise floor) must clear the bar. " +
  "The same inputs and output limits apply to every engine; actual concurrency depends on response duration and engine scheduling.";

/** Untrusted text outside code (src/scorecard/escape-engine-text.ts): the one escaping every cell goes through. */
export { escapeInline as escapeCell } from "./escape-engine-text.js";

const STATUS_LABEL: Record<PromptResult["status"], string> = {
  scored: "scored",
  below_tolerance: "⚠️ below tolerance",
  zeroed: "❌ zeroed",
  excluded: "➖ excluded",
  diverged: "❌ diverged",
  implausible: "❌ implausible",
};

/** A two-column table whose first pair is its header row, so no empty header bar shows above it. */
function keyValueTable(rows: string[][]): string {
  return markdownTable(rows, { alignDelimiters: false, align: ["l", "l"] });
}

/** The troubleshooting page for a failure kind, linked when the card knows where speedgate's docs are. */
export function troubleshootingLink(card: Scorecard, kind: string): string {
  const page = `${kind}.md`;
  if (card.docsBaseUrl) return `[troubleshooting: ${kind}](${card.docsBaseUrl}${page})`;
  return `troubleshooting: \`docs/troubleshooting/${page}\` in speedgate's repository`;
}

interface RenderLimits {
  promptRows: number;
  logLines: number;
}

function summarySection(card: Scorecard): string {
  const interval = card.scoreInterval
    ? ` (${Math.round(card.scoreInterval.confidence * 100)}% interval ${formatTimes(card.scoreInterval.low)}–${formatTimes(card.scoreInterval.high)})`
    : "";
  const roundScore = card.roundScore === null ? "—" : `${formatScoreAgainstBar(card.roundScore, card.gate.bar)}${interval}`;
  const rows: string[][] = [["Round score (median_e2e_speedup)", roundScore]];
  const intervalWords = describeInterval(card);
  if (intervalWords) rows.push(["Interval", escapeCell(intervalWords)]);
  rows.push(["Runs", escapeCell(describeRuns(card))], ["Noise", escapeCell(describeNoise(card))]);
  rows.push(
    ["Prompts scored", `${card.promptsScored} / ${card.promptsTotal}`],
    ["Below tolerance", `${card.belowTolerance}: answered too little to score`],
    ...integrityRows(card),
    ["Zeroed total", `${card.zeroedTotal}: scored 0.0 without measuring`],
    ["Unscored", escapeCell(describeUnscored(card))],
  );
  if (card.excluded > 0) rows.push(["Excluded", `${card.excluded}: the baseline failed on them or answered nothing, so they count nowhere`]);
  const verdict = card.gate.passed ? `✅ passes: ${escapeCell(card.gate.reason)}` : `❌ does not pass: ${card.gate.reasons.map(escapeCell).join("; ")}`;
  rows.push(["Gate", verdict]);
  return keyValueTable(rows);
}

function settingsSection(card: Scorecard): string {
  const s = card.settings;
  const table = markdownTable(
    [
      ["Request interval", "Runs", "Thinking", "Context limit", "Max tokens", "Tolerance", "Model"],
      [
        `${s.requestIntervalMs} ms${s.arrival === "poisson" ? " (Poisson mean)" : ""}`,
        String(s.runs),
        s.thinking ? "on" : "off",
        s.contextLimit.toLocaleString("en-US"),
        s.maxTokens.toLocaleString("en-US"),
        formatPercent(s.tolerance),
        escapeCell(s.model),
      ],
    ],
    { alignDelimiters: false },
  );
  const estimate = card.tokenCountsEstimated
    ? "\n\nToken counts are estimates (one token a streamed delta, spread to the final usage): the server did not report them per chunk."
    : "";
  const counting = countingSentence(card);
  return `${table}\n\n${SCORING_RULE_SENTENCE}${estimate}${counting ? `\n\n${counting}` : ""}`;
}

function failureSection(card: Scorecard, logLines: number): string {
  const failure = card.failure;
  if (!failure) return "";
  const exit = failure.exitCode !== null ? String(failure.exitCode) : failure.signal ? `signal ${failure.signal}` : "—";
  const rows = [
    ["Kind", `\`${failure.kind}\`: ${escapeCell(failure.label)}`],
    ["Engine", failure.engine],
    ["Stage", failure.run ? `${failure.stage}, run ${failure.run} of ${card.settings.runs}` : failure.stage],
    ["Exit", escapeCell(exit)],
    ["Summary", escapeCell(failure.summary)],
    [
      "Hint for maintainers",
      `${failure.hint ? `${renderWithCodeSpans(failure.hint, escapeCell)} ` : ""}(${troubleshootingLink(card, failure.kind)})`,
    ],
  ];
  const parts = [`### ${failure.engine === "baseline" ? "⚠️" : "❌"} ${capitalize(describeFailureEvent(failure))}`];
  // What the pull request's author needs comes first; the flags and the log are for whoever runs the runner.
  const oom = explainCudaOom(card);
  if (oom) parts.push(`**${escapeCell(oom.lead)}** ${renderWithCodeSpans(oom.text, escapeCell)}`);
  parts.push(keyValueTable(rows));
  if (failure.logTail.length > 0) {
    const shown = failure.logTail.slice(Math.max(0, failure.logTail.length - logLines)).map(escapeCodeLine);
    const dropped = failure.logTail.length - shown.length;
    const fence = fenceFor(shown);
    const note = dropped > 0 ? ` (${dropped} older lines left out to fit GitHub's size limit)` : "";
    // Collapsed: the summary row already holds the exception line; the tail is for digging further.
    parts.push(
      `<details><summary>Log tail: last ${shown.length} lines${note}</summary>\n\n${fence}text\n${shown.join("\n")}\n${fence}\n\n</details>`,
    );
  }
  return parts.join("\n\n");
}

function side(prompt: PromptResult, pick: (s: NonNullable<PromptResult["baseline"]>) => string): string {
  const b = prompt.baseline ? pick(prompt.baseline) : "—";
  const c = prompt.candidate ? pick(prompt.candidate) : "—";
  return `${b} / ${c}`;
}

function promptsSection(card: Scorecard, rows: number): string {
  if (card.prompts.length === 0) return "";
  const shown = card.prompts.slice(0, rows);
  const manyRuns = card.runs.completed > 1;
  const firstRun = manyRuns ? ", run 1" : "";
  const table = markdownTable(
    [
      [
        "#",
        "Prompt",
        "Status",
        "Score",
        ...(manyRuns ? ["Run scores"] : []),
        `Tokens (base / cand${firstRun})`,
        `TTFT ms (base / cand${firstRun})`,
        `E2E ms (base / cand${firstRun})`,
        "Reason",
      ],
      ...shown.map((prompt, index) => [
        String(index + 1),
        escapeCell(prompt.id),
        STATUS_LABEL[prompt.status],
        prompt.score === null ? "—" : formatTimes(prompt.score),
        ...(manyRuns ? [formatRunScores(prompt)] : []),
        side(prompt, (s) => (s.outputTokens === null ? "—" : String(s.outputTokens))),
        side(prompt, (s) => formatMs(s.ttftMs)),
        side(prompt, (s) => formatMs(s.e2eMs)),
        escapeCell(promptReason(prompt, card)),
      ]),
    ],
    { alignDelimiters: false, align: ["r", "l", "l", "r", ...(manyRuns ? ["r"] : []), "r", "r", "r", "l"] },
  );
  const left = card.prompts.length - shown.length;
  const leftNote = left > 0 ? `\n\n${left} more prompts are not shown here to fit GitHub's size limit; all ${card.prompts.length} are in scorecard.json.` : "";
  const body = `${table}${leftNote}`;
  if (card.prompts.length <= FOLD_PROMPTS_AFTER) return `### Prompts\n\n${body}`;
  return `<details><summary>Per-prompt results (${card.prompts.length} prompts)</summary>\n\n${body}\n\n</details>`;
}

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
    ["Scorer", `speedgate ${escapeCell(card.speedgateVersion)}, card schema ${card.schemaVersion}${card.convertedFrom ? ` (converted from a version-${card.convertedFrom} card, which kept no times at the compared length: its prompt scores are that card's)` : ""}`],
  ];
  if (card.shard) rows.push(["Shard", `${card.shard.index} of ${card.shard.count}`]);
  if (card.source?.runUrl) rows.push(["Run", escapeCell(card.source.runUrl)]);
  const gpu = renderGpuStateTable(card);
  const gpuPart = gpu === "" ? "" : `\n\n${gpu}`;
  return `<details><summary>Provenance and GPU state</summary>\n\n${keyValueTable(rows)}${gpuPart}\n\n</details>`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function renderWith(card: Scorecard, limits: RenderLimits): string {
  const { headline } = describeVerdict(card);
  const sections = [
    CARD_MARKER,
    `## ${escapeCell(headline)}`,
    summarySection(card),
    renderGpuBusyWarning(card),
    renderLeftOutFiles(card),
    failureSection(card, limits.logLines),
    renderSpeedSection(card),
    settingsSection(card),
    promptsSection(card, limits.promptRows),
    renderScoreChart(card),
    // Base/head mode only: a self-contained section, placed with the provenance it belongs to.
    renderCommitsSection(card),
    provenanceSection(card),
  ];
  return `${sections.filter((section) => section !== "").join("\n\n")}\n`;
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
  // No more rows than could ever fit are rendered: a card of 20,000 prompts would otherwise render its
  // whole table at every step of the search below, minutes of work for the app.
  const allRows = Math.min(card.prompts.length, Math.floor(maxChars / MIN_PROMPT_ROW_CHARS));
  const allLines = card.failure?.logTail.length ?? 0;
  if (allRows === card.prompts.length) {
    const full = renderWith(card, { promptRows: allRows, logLines: allLines });
    if (full.length <= maxChars) return full;
  }

  const fits = (limits: RenderLimits): boolean => renderWith(card, limits).length <= maxChars;
  const keepRows = Math.min(allRows, FOLD_PROMPTS_AFTER);
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
  return rendered.length <= maxChars ? rendered : `${rendered.slice(0, maxChars - 80)}\n\n…card cut to fit GitHub's size limit; see scorecard.json.\n`;
}
