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
import { cleanLogLine, fenceFor } from "./sanitize-log-tail.js";
import type { PromptResult, Scorecard } from "./scorecard-schema.js";

export const CARD_MARKER = "<!-- speedgate -->";
/** GitHub refuses comments over 65,536 characters and check summaries over 65,535; keep a margin. */
export const MAX_CARD_CHARS = 60_000;
const FOLD_PROMPTS_AFTER = 10;
const CHART_MAX_BARS = 60;

export const SCORING_RULE_SENTENCE =
  "The round score is the median, over prompts, of the candidate's end-to-end speedup against the baseline. " +
  "Both engines are compared at the same output token count, so a candidate that stops early cannot buy speed by answering less: " +
  "a prompt under the tolerance bar scores nothing and shows its gate reason. " +
  "With several runs, each prompt's speedups combine by their geometric mean, and a prompt left unscored in any run scores nothing. " +
  "The gate never passes when the candidate engine failed, when more than gate.maxUnscored of the prompts went unscored, or with fewer than gate.minPrompts prompts; " +
  "otherwise the interval's low end (not calibrated) or the round score (against the bar raised by the calibrated noise floor) must clear the bar. " +
  "The same inputs and output limits apply to every engine; actual concurrency depends on response duration and engine scheduling.";

/**
 * Text from a card may come from an engine's output or a pull request's artifact: it must not open
 * HTML, break a table, or notify anyone.
 */
export function escapeCell(text: string): string {
  return cleanLogLine(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|")
    .replace(/`/g, "&#96;")
    .replace(/@/g, "&#64;")
    .replace(/\[/g, "&#91;")
    .replace(/\n/g, " ");
}

const STATUS_LABEL: Record<PromptResult["status"], string> = {
  scored: "scored",
  below_tolerance: "⚠️ below tolerance",
  diverged: "⚠️ diverged",
  implausible: "⚠️ implausible",
  zeroed: "❌ zeroed",
  excluded: "➖ excluded",
};

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
  );
  if (card.diverged > 0) rows.push(["Diverged", `${card.diverged}: answered something other than the baseline`]);
  if (card.implausible > 0) rows.push(["Implausible", `${card.implausible}: timings no real stream could have`]);
  rows.push(["Zeroed total", `${card.zeroedTotal}: scored 0.0 without measuring`], ["Unscored", escapeCell(describeUnscored(card))]);
  if (card.excluded > 0) rows.push(["Excluded", `${card.excluded}: the baseline failed on them or answered nothing, so they count nowhere`]);
  const verdict = card.gate.passed ? `✅ passes: ${escapeCell(card.gate.reason)}` : `❌ does not pass: ${card.gate.reasons.map(escapeCell).join("; ")}`;
  rows.push(["Gate", verdict]);
  return markdownTable([["", ""], ...rows], { alignDelimiters: false });
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
  return `${table}\n\n${SCORING_RULE_SENTENCE}${estimate}`;
}

function failureSection(card: Scorecard, logLines: number): string {
  const failure = card.failure;
  if (!failure) return "";
  const exit = failure.exitCode !== null ? String(failure.exitCode) : failure.signal ? `signal ${failure.signal}` : "—";
  const table = markdownTable(
    [
      ["", ""],
      ["Engine", failure.engine],
      ["Stage", failure.run ? `${failure.stage}, run ${failure.run} of ${card.settings.runs}` : failure.stage],
      ["Kind", `\`${failure.kind}\`: ${escapeCell(failure.label)}`],
      ["Exit", escapeCell(exit)],
      ["Summary", escapeCell(failure.summary)],
      ["Hint", escapeCell(failure.hint)],
    ],
    { alignDelimiters: false },
  );
  const parts = [`### ${failure.engine === "baseline" ? "⚠️" : "❌"} ${capitalize(describeFailureEvent(failure))}`, table];
  if (failure.logTail.length > 0) {
    const shown = failure.logTail.slice(Math.max(0, failure.logTail.length - logLines)).map(cleanLogLine);
    const dropped = failure.logTail.length - shown.length;
    const fence = fenceFor(shown);
    const note = dropped > 0 ? ` (${dropped} older lines left out to fit GitHub's size limit)` : "";
    parts.push(
      `<details open><summary>Log tail: last ${shown.length} lines${note}</summary>\n\n${fence}text\n${shown.join("\n")}\n${fence}\n\n</details>`,
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
        "Prompt",
        "Status",
        "Score",
        ...(manyRuns ? ["Run scores"] : []),
        `Tokens (base / cand${firstRun})`,
        `TTFT ms (base / cand${firstRun})`,
        `E2E ms (base / cand${firstRun})`,
        "Reason",
      ],
      ...shown.map((prompt) => [
        escapeCell(prompt.id),
        STATUS_LABEL[prompt.status],
        prompt.score === null ? "—" : formatTimes(prompt.score),
        ...(manyRuns ? [formatRunScores(prompt)] : []),
        side(prompt, (s) => (s.outputTokens === null ? "—" : String(s.outputTokens))),
        side(prompt, (s) => formatMs(s.ttftMs)),
        side(prompt, (s) => formatMs(s.e2eMs)),
        prompt.reason ? escapeCell(prompt.reason) : "",
      ]),
    ],
    { alignDelimiters: false, align: ["l", "l", "r", ...(manyRuns ? ["r"] : []), "r", "r", "r", "l"] },
  );
  const left = card.prompts.length - shown.length;
  const leftNote = left > 0 ? `\n\n${left} more prompts are not shown here to fit GitHub's size limit; all ${card.prompts.length} are in scorecard.json.` : "";
  const body = `${table}${leftNote}`;
  if (card.prompts.length <= FOLD_PROMPTS_AFTER) return `### Prompts\n\n${body}`;
  return `<details><summary>Per-prompt results (${card.prompts.length} prompts)</summary>\n\n${body}\n\n</details>`;
}

function chartLabel(id: string): string {
  return JSON.stringify(id.replace(/["\\\n\r]/g, "").slice(0, 24));
}

/** Bars per prompt for small rounds; a histogram of scores past that, which stays readable and small. */
function chartSection(card: Scorecard): string {
  const counted = card.prompts.filter((prompt) => prompt.status !== "excluded");
  if (counted.length === 0) return "";
  let labels: string[];
  let values: number[];
  let title: string;
  let yLabel: string;
  if (counted.length <= CHART_MAX_BARS) {
    labels = counted.map((prompt) => chartLabel(prompt.id));
    values = counted.map((prompt) => Math.round((prompt.score ?? 0) * 1000) / 1000);
    title = "Per-prompt score (0 = not scored)";
    yLabel = "speedup ×";
  } else {
    const edges = [0, 0.5, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2];
    labels = edges.map((edge, index) => {
      const next = edges[index + 1];
      if (edge === 0) return chartLabel("0 (no score)");
      return chartLabel(next === undefined ? `≥${edge}` : `${edge}–${next}`);
    });
    values = edges.map(() => 0);
    for (const prompt of counted) {
      const score = prompt.score ?? 0;
      let bucket = 0;
      if (score > 0) {
        bucket = 1;
        for (let index = 1; index < edges.length; index++) if (score >= (edges[index] as number)) bucket = index;
      }
      values[bucket] = (values[bucket] ?? 0) + 1;
    }
    title = `Prompts by score (${counted.length} prompts)`;
    yLabel = "prompts";
  }
  const top = Math.max(1, ...values);
  return [
    "```mermaid",
    "xychart-beta",
    `  title ${JSON.stringify(title)}`,
    `  x-axis [${labels.join(", ")}]`,
    `  y-axis ${JSON.stringify(yLabel)} 0 --> ${Math.ceil(top * 1.1 * 100) / 100}`,
    `  bar [${values.join(", ")}]`,
    "```",
  ].join("\n");
}

function provenanceSection(card: Scorecard): string {
  const p = card.provenance;
  const code = (value: string | null): string => (value ? `\`${value.replace(/`/g, "")}\`` : "—");
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
  return `<details><summary>Provenance</summary>\n\n${markdownTable([["", ""], ...rows], { alignDelimiters: false })}\n\n</details>`;
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
    failureSection(card, limits.logLines),
    settingsSection(card),
    promptsSection(card, limits.promptRows),
    chartSection(card),
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
  const allRows = card.prompts.length;
  const allLines = card.failure?.logTail.length ?? 0;
  const full = renderWith(card, { promptRows: allRows, logLines: allLines });
  if (full.length <= maxChars) return full;

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
