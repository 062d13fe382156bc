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
import { describeHolders, describeMemoryInUse, readGpuSnapshot } from "./read-gpu-snapshot.js";
import { describeTimeChange, formatRate, formatRatio } from "./render-speed-section.js";
import { cleanLogLine } from "./sanitize-log-tail.js";
import { renderCommitsText } from "./render-commits-section.js";
import type { Scorecard } from "./scorecard-schema.js";

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

function columns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, index) => pad(cell, widths[index] ?? 0)).join("  ").trimEnd());
}

/** The card for a terminal: the same facts as the Markdown card, in plain aligned text. */
export function renderText(card: Scorecard, options: { maxPromptRows?: number; maxLogLines?: number } = {}): string {
  const maxRows = options.maxPromptRows ?? 50;
  const maxLogLines = options.maxLogLines ?? 60;
  const out: string[] = [];
  out.push(describeVerdict(card).headline, "");
  const interval = card.scoreInterval
    ? ` (${Math.round(card.scoreInterval.confidence * 100)}% interval ${formatTimes(card.scoreInterval.low)}–${formatTimes(card.scoreInterval.high)})`
    : "";
  const intervalWords = describeInterval(card);
  out.push(
    ...columns([
      ["Round score", card.roundScore === null ? "—" : `${formatScoreAgainstBar(card.roundScore, card.gate.bar)}${interval}`],
      ...(intervalWords ? [["Interval", intervalWords]] : []),
      ["Runs", describeRuns(card)],
      ["Noise", describeNoise(card)],
      ["Prompts scored", `${card.promptsScored} / ${card.promptsTotal}`],
      ["Below tolerance", `${card.belowTolerance} (answered too little to score)`],
      ...integrityRows(card),
      ["Zeroed total", `${card.zeroedTotal} (scored 0.0 without measuring)`],
      ["Unscored", describeUnscored(card)],
      ...(card.excluded > 0 ? [["Excluded", `${card.excluded} (baseline failed on them or answered nothing)`]] : []),
      ["Gate", card.gate.passed ? `passes: ${card.gate.reason}` : `does not pass: ${card.gate.reasons.join("; ")}`],
    ]),
  );
  const s = card.settings;
  out.push(
    "",
    `Settings: request interval ${s.requestIntervalMs} ms${s.arrival === "poisson" ? " (Poisson)" : ""}, runs ${s.runs}, thinking ${s.thinking ? "on" : "off"}, context limit ${s.contextLimit}, max tokens ${s.maxTokens}, tolerance ${formatPercent(s.tolerance)}`,
  );
  if (card.tokenCountsEstimated) out.push("Token counts are estimates: the server did not report them per chunk.");
  const counting = countingSentence(card);
  if (counting) out.push(counting);
  const metrics = card.metrics;
  if (metrics) {
    const row = (label: string, metric: "ttftMs" | "tpotMs" | "itlMs" | "e2eMs"): string[] => [
      `  ${label}`,
      `${formatMs(metrics.baseline[metric].median)} / ${formatMs(metrics.baseline[metric].p90)} / ${formatMs(metrics.baseline[metric].p99)}`,
      `${formatMs(metrics.candidate[metric].median)} / ${formatMs(metrics.candidate[metric].p90)} / ${formatMs(metrics.candidate[metric].p99)}`,
      `${formatRatio(metrics.ratio[metric].median)} / ${formatRatio(metrics.ratio[metric].p90)} / ${formatRatio(metrics.ratio[metric].p99)}`,
    ];
    out.push(
      "",
      `Where the speed came from (${metrics.prompts} scored prompts, at equal length): prefill ${describeTimeChange(metrics.ratio.ttftMs.median)}, decode ${describeTimeChange(metrics.ratio.tpotMs.median)} per token`,
      ...columns([
        ["  ms", "baseline p50/p90/p99", "candidate p50/p90/p99", "candidate ÷ baseline"],
        row("TTFT", "ttftMs"),
        row("TPOT", "tpotMs"),
        row("ITL", "itlMs"),
        row("E2E at k", "e2eMs"),
        ["  output tok/s", formatRate(metrics.baseline.outputTokensPerS), formatRate(metrics.candidate.outputTokensPerS), formatRatio(metrics.ratio.outputTokensPerS)],
        ["  requests/s", formatRate(metrics.baseline.requestsPerS), formatRate(metrics.candidate.requestsPerS), formatRatio(metrics.ratio.requestsPerS)],
      ]),
    );
  }
  const failure = card.failure;
  if (failure) {
    const oom = explainCudaOom(card);
    out.push(
      "",
      `${describeFailureEvent(failure)}`,
      ...(oom ? [`${oom.lead} ${oom.text}`] : []),
      ...columns([
        ["  engine", failure.engine],
        ["  stage", failure.run ? `${failure.stage}, run ${failure.run} of ${card.settings.runs}` : failure.stage],
        ["  kind", `${failure.kind} (${failure.label})`],
        ["  exit", failure.exitCode !== null ? String(failure.exitCode) : (failure.signal ?? "—")],
        ["  summary", failure.summary],
        ["  hint", failure.hint],
      ]),
    );
    if (failure.logTail.length > 0) {
      const shown = failure.logTail.slice(-maxLogLines);
      out.push("", `Log tail (last ${shown.length} of ${failure.logTail.length} lines):`, ...shown.map((line) => `  | ${cleanLogLine(line)}`));
    }
  }
  if (card.prompts.length > 0) {
    const shown = card.prompts.slice(0, maxRows);
    const manyRuns = card.runs.completed > 1;
    const perRun = (prompt: (typeof shown)[number]): string[] => (manyRuns ? [formatRunScores(prompt, "/")] : []);
    out.push(
      "",
      ...columns([
        ["prompt", "status", "score", ...(manyRuns ? ["runs"] : []), manyRuns ? "tokens b/c (run 1)" : "tokens b/c", "e2e ms b/c", "reason"],
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
  const commits = renderCommitsText(card);
  if (commits.length > 0) out.push("", ...commits);
  out.push("", `Engine ${card.engine}; image digest ${p.imageDigest ?? "—"}; patch hash ${p.patchHash ?? "—"}; runner ${p.runner ?? "—"}; GPU ${p.gpu ?? "—"}`);
  return `${out.join("\n")}\n`;
}
