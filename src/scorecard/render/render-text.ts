import { decideVerdict } from "../decide-verdict.js";
import {
  describeFailureCause,
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
import {
  describeGate,
  describeInconclusive,
  describeIntervalBriefly,
  describeNextStep,
  describePromptCounts,
  describeRegressedPrompts,
  describeScore,
  describeUnexplainedDecision,
} from "./describe-summary.js";
import { countingSentence, integrityRows, promptReason } from "./describe-integrity.js";
import { describeChangedQuestions, describeQualityRows } from "./describe-quality.js";
import { describeQueueBound } from "./render-queue-bound-notice.js";
import { renderEngineTimes } from "./render-engine-times.js";
import { describeWhoActs } from "./describe-who-acts.js";
import { describeHolders, describeMemoryInUse, readGpuSnapshot } from "../read-gpu-snapshot.js";
import { findSameOutcome } from "./render-prompts-section.js";
import { describeSpeedLead, describeTimeChange, formatRate, formatRatio } from "./render-speed-section.js";
import { cleanLogLine } from "../../safe-text/sanitize-log-tail.js";
import { delinkPlainText } from "../../safe-text/delink-plain-text.js";
import { renderCommitsText } from "./render-commits-section.js";
import { describeScenarioScore } from "../assemble-scenario-card.js";
import { renderScenarioBarsText } from "./render-scenario-bars.js";
import { type ScenariosDescription, describeScenarios } from "./describe-scenarios.js";
import { describeTimeSpent } from "./describe-time-spent.js";
import { describeFixedFour } from "./describe-budget.js";
import { roundRuns } from "./render-failure-section.js";
import type { Scorecard } from "../scorecard-schema.js";

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

function columns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, index) => pad(cell, widths[index] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

/** The failed engine, cause first, as the Markdown card puts it. */
function failureLines(card: Scorecard, maxLogLines: number): string[] {
  const failure = card.failure;
  if (!failure) return [];
  const who = describeWhoActs(card);
  const runnerAtFault = decideVerdict(card).cause === "runner";
  const scenarioNote = failure.scenario ? `, scenario ${failure.scenario}` : "";
  const out = [
    "",
    describeFailureCause(failure),
    ...(who ? [`${who.lead} ${who.text}`] : []),
    ...columns([
      ["  engine", failure.engine],
      ["  stage", `${failure.stage}${failure.run ? `, run ${failure.run} of ${roundRuns(card)}` : ""}${scenarioNote}`],
      ["  kind", `${failure.kind} (${failure.label})`],
      ["  exit", failure.exitCode !== null ? String(failure.exitCode) : (failure.signal ?? "—")],
      ["  error", failure.summary],
      ...(failure.frames && failure.frames.length > 0 ? [["  frames", failure.frames.join(" ← ")]] : []),
      [runnerAtFault ? "  if it fails on a free GPU" : "  what to try", failure.hint],
    ]),
  ];
  if (failure.logTail.length > 0) {
    const shown = failure.logTail.slice(-maxLogLines);
    out.push(
      "",
      `Log tail (last ${shown.length} of ${failure.logTail.length} lines):`,
      ...shown.map((line) => `  | ${cleanLogLine(line)}`),
    );
  }
  return out;
}

/** The score table of the first screen, as the Markdown card's: none without a score. */
function summaryRows(card: Scorecard, indent = ""): string[][] {
  const score = describeScore(card);
  if (!score) return [];
  const gate = describeGate(card);
  const speed = describeSpeedLead(card);
  const next = describeNextStep(card);
  const inconclusive = describeInconclusive(card);
  const regressed = describeRegressedPrompts(card);
  const answers = describeUnexplainedDecision(card);
  const rows = [
    ["Round score", `${score.score} ${score.rest}`],
    ["Prompts", describePromptCounts(card)],
    ...(speed === "" ? [] : [["Speed", speed]]),
    ...(regressed ? [["Slower prompts", regressed]] : []),
    ...describeQualityRows(card).map((row) => [row.label, row.text]),
    ...(answers ? [["Answers", answers]] : []),
    ["Gate", gate.text],
    ...(next ? [["What now", next]] : []),
    ...(inconclusive
      ? [
          ["For the author", inconclusive.author],
          ["For maintainers", inconclusive.maintainers],
        ]
      : []),
  ];
  return rows.map(([label, text]) => [`${indent}${label ?? ""}`, text ?? ""]);
}

/** The load and limits a round ran with, on one line. */
function settingsLine(card: Scorecard): string {
  const s = card.settings;
  const load = s.concurrency
    ? `concurrency ${s.concurrency}`
    : `request interval ${s.requestIntervalMs} ms${s.arrival === "poisson" ? " (Poisson)" : ""}`;
  const runs = s.budget ? `${s.budget.min} to ${s.budget.max} (a budget)` : String(s.runs);
  return (
    `Settings: ${load}, ` +
    `runs ${runs}, thinking ${s.thinking ? "on" : "off"}, context limit ${s.contextLimit}, max tokens ${s.maxTokens}, tolerance ` +
    `${formatPercent(s.tolerance)}`
  );
}

/** Where the round's time went, as the method section's table; none on a card that did not record it. */
function timeSpentLines(card: Scorecard): string[] {
  if (!card.timeSpent) return [];
  const { rows, sentence } = describeTimeSpent(card.timeSpent);
  const four = describeFixedFour(card, card.timeSpent);
  return [
    "",
    "Where the time went:",
    ...columns(rows.map(([label, ...rest]) => [`  ${label ?? ""}`, ...rest])),
    `  ${sentence}`,
    ...(four ? [`  ${four}`] : []),
  ];
}

/** What the GPU looked like before each engine started, the commits and the provenance: the card's last lines. */
function provenanceLines(card: Scorecard): string[] {
  const out: string[] = [];
  for (const role of ["baseline", "candidate"] as const) {
    const snapshot = card.gpuState?.[role];
    if (snapshot === undefined) continue;
    const reading = readGpuSnapshot(snapshot);
    const state = reading.readable
      ? `${describeMemoryInUse(reading)}; ${reading.processes.length === 0 ? "no process listed" : describeHolders(reading.processes)}`
      : `not read (${snapshot?.error ?? "the engine did not start"})`;
    out.push(`GPU before the ${role} started: ${state}`);
  }
  const p = card.provenance;
  out.push(...renderCommitsText(card));
  out.push(
    `Engine ${card.engine}; image digest ${p.imageDigest ?? "—"}; patch hash ${p.patchHash ?? "—"}; runner ${p.runner ?? "—"}; GPU ` +
      `${p.gpu ?? "—"}`,
  );
  return out;
}

/**
 * A card with scenarios for a terminal, in the Markdown card's order: the headline over every
 * scenario and their table (the failure first when nothing was scored or someone else failed), each
 * scenario's score table, then how the round was measured and where its time went.
 */
function renderScenariosText(card: Scorecard, scenarios: ScenariosDescription, maxLogLines: number): string {
  const out: string[] = [scenarios.headline, ""];
  const failure = failureLines(card, maxLogLines);
  if (scenarios.leadsWithFailure) out.push(...failure.slice(1), "");
  out.push(
    ...columns([
      ["scenario", "role", "load", "prompts", "score", "interval", "verdict"],
      ...scenarios.rows.map((row) => [row.name, row.role, row.load, row.prompts, row.score, row.interval, `${row.mark} ${row.verdict}`]),
    ]),
  );
  for (const reason of scenarios.roundReasons) out.push("", `Not passed: ${reason}.`);
  out.push("", renderScenarioBarsText(card));
  for (const row of scenarios.rows) {
    const queueBound = describeQueueBound(row.card);
    if (queueBound) out.push("", `${row.name}: ${queueBound}`);
  }
  if (card.unchanged) out.push("", `No change was scored: ${card.unchanged}.`);
  if (!scenarios.leadsWithFailure) out.push(...failure);
  for (const row of scenarios.rows) {
    out.push("", `Scenario ${row.name}: ${describeScenarioScore(row.card)} ${row.mark}`);
    const rows = summaryRows(row.card, "  ");
    out.push(...(rows.length > 0 ? columns(rows) : [`  No score: ${row.card.gate.reason}`]));
    if (!row.judgement.passed && row.card.gate.passed && row.judgement.reason)
      out.push(`  Not passed in this round: ${row.judgement.reason.slice(row.name.length + 2)}`);
    out.push(`  ${settingsLine(row.card)}`);
  }
  out.push("", "How the round was measured:", `  Gate: ${describeGate(card).text}`);
  const counting = countingSentence(card);
  if (counting) out.push(`  ${counting}`);
  out.push(...timeSpentLines(card), "", ...provenanceLines(card));
  return `${delinkPlainText(out.join("\n"))}\n`;
}

/**
 * The card for a terminal, in the Markdown card's order: the verdict and why first (the score table,
 * or the failure of a card with no score), then the details the Markdown card folds. A terminal or
 * a workflow's job log links what looks like a URL, so no URL or e-mail address in it stays whole.
 */
export function renderText(card: Scorecard, options: { maxPromptRows?: number; maxLogLines?: number } = {}): string {
  const maxRows = options.maxPromptRows ?? 50;
  const maxLogLines = options.maxLogLines ?? 60;
  const scenarios = describeScenarios(card);
  if (scenarios) return renderScenariosText(card, scenarios, maxLogLines);
  const out: string[] = [];
  // The gate's sentence is said once, in the Gate row: the headline names its first reason only.
  out.push(describeVerdict(card, { firstReasonOnly: true }).headline, "");
  // A failure leads, with who acts, before any score: the headline names it.
  const failure = failureLines(card, maxLogLines);
  if (failure.length > 0) out.push(...failure.slice(1), "");
  const score = describeScore(card);
  out.push(...columns(summaryRows(card)));
  const queueBound = describeQueueBound(card);
  if (queueBound) out.push("", queueBound);
  if (card.unchanged) out.push("", `No change was scored: ${card.unchanged}.`);

  out.push("", "How the score was measured:");
  const intervalWords = describeInterval(card);
  out.push(
    ...columns([
      [
        "  Round score",
        card.roundScore === null ? "—" : `${formatScoreAgainstBar(card.roundScore, card.gate.bar)} (${describeIntervalBriefly(card)})`,
      ],
      ...(intervalWords ? [["  Interval", intervalWords]] : []),
      ["  Runs", describeRuns(card)],
      ["  Noise", describeNoise(card)],
      ["  Prompts scored", `${card.promptsScored} / ${card.promptsTotal}`],
      ["  Below tolerance", `${card.belowTolerance} (answered too little to score)`],
      ...integrityRows(card).map(([label, text]) => [`  ${label ?? ""}`, text ?? ""]),
      ["  Zeroed", `${card.zeroedTotal} (the candidate failed on them, so each counts as 0)`],
      ["  Unscored", describeUnscored(card)],
      ...(card.excluded > 0 ? [["  Excluded", `${card.excluded} (baseline failed on them or answered nothing)`]] : []),
      // A scored card's gate is in its first rows already; one with no score says it only here.
      ...(score ? [] : [["  Gate", describeGate(card).text]]),
    ]),
  );
  out.push(`  ${settingsLine(card)}`);
  if (card.tokenCountsEstimated) out.push("  Token counts are estimates: the server did not report them per chunk.");
  const counting = countingSentence(card);
  if (counting) out.push(`  ${counting}`);
  const metrics = card.metrics;
  if (metrics) {
    const row = (label: string, metric: "ttftMs" | "tpotMs" | "itlMs" | "e2eMs"): string[] => [
      `  ${label}`,
      `${formatMs(metrics.baseline[metric].median)} / ${formatMs(metrics.baseline[metric].p90)} / ` +
        `${formatMs(metrics.baseline[metric].p99)}`,
      `${formatMs(metrics.candidate[metric].median)} / ${formatMs(metrics.candidate[metric].p90)} / ` +
        `${formatMs(metrics.candidate[metric].p99)}`,
      `${formatRatio(metrics.ratio[metric].median)} / ${formatRatio(metrics.ratio[metric].p90)} / ` +
        `${formatRatio(metrics.ratio[metric].p99)}`,
    ];
    out.push(
      "",
      `Where the speed came from (${metrics.prompts} scored prompts, at equal length): first token (queueing included) ` +
        `${describeTimeChange(metrics.ratio.ttftMs.median)}, decode ${describeTimeChange(metrics.ratio.tpotMs.median)} per token`,
      ...columns([
        ["  ms", "baseline p50/p90/p99", "candidate p50/p90/p99", "candidate ÷ baseline"],
        row("TTFT", "ttftMs"),
        row("TPOT", "tpotMs"),
        row("ITL", "itlMs"),
        row("E2E at k", "e2eMs"),
        [
          "  output tok/s",
          formatRate(metrics.baseline.outputTokensPerS),
          formatRate(metrics.candidate.outputTokensPerS),
          formatRatio(metrics.ratio.outputTokensPerS),
        ],
        [
          "  requests/s",
          formatRate(metrics.baseline.requestsPerS),
          formatRate(metrics.candidate.requestsPerS),
          formatRatio(metrics.ratio.requestsPerS),
        ],
      ]),
    );
    const own = renderEngineTimes(card).replace(/\*\*|`/g, "");
    if (own) out.push(own);
  }
  const changed = describeChangedQuestions(card);
  if (changed) out.push("", `${changed.summary}:`, ...changed.lines.map((line) => `  ${line}`));
  const same = findSameOutcome(card);
  if (same) {
    out.push("", `All ${card.prompts.length} prompts: ${same.status}, ${same.score}${same.reason ? `: ${same.reason}` : ""}`);
  } else if (card.prompts.length > 0) {
    const shown = card.prompts.slice(0, maxRows);
    const manyRuns = card.runs.completed > 1;
    const perRun = (prompt: (typeof shown)[number]): string[] => (manyRuns ? [formatRunScores(prompt, "/")] : []);
    out.push(
      "",
      ...columns([
        [
          "prompt",
          "status",
          "score",
          ...(manyRuns ? ["runs"] : []),
          manyRuns ? "tokens b/c (run 1)" : "tokens b/c",
          "e2e ms b/c",
          "reason",
        ],
        ...shown.map((prompt) => [
          prompt.id,
          prompt.status,
          prompt.score === null ? "—" : formatTimes(prompt.score),
          ...perRun(prompt),
          `${prompt.baseline?.outputTokens ?? "—"}/${prompt.candidate?.outputTokens ?? "—"}`,
          `${formatMs(prompt.baseline?.e2eMs ?? null)}/${formatMs(prompt.candidate?.e2eMs ?? null)}`,
          promptReason(prompt, card),
        ]),
      ]),
    );
    if (card.prompts.length > shown.length) out.push(`… ${card.prompts.length - shown.length} more prompts in scorecard.json`);
  }
  out.push(...timeSpentLines(card), "", ...provenanceLines(card));
  return `${delinkPlainText(out.join("\n"))}\n`;
}
