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
import { cleanLogLine } from "./sanitize-log-tail.js";
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
      ...(card.diverged > 0 ? [["Diverged", `${card.diverged} (answered something other than the baseline)`]] : []),
      ...(card.implausible > 0 ? [["Implausible", `${card.implausible} (timings no real stream could have)`]] : []),
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
  const failure = card.failure;
  if (failure) {
    out.push(
      "",
      `${describeFailureEvent(failure)}`,
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
          prompt.reason ?? "",
        ]),
      ]),
    );
    if (card.prompts.length > shown.length) out.push(`… ${card.prompts.length - shown.length} more prompts in scorecard.json`);
  }
  const p = card.provenance;
  out.push("", `Engine ${card.engine}; image digest ${p.imageDigest ?? "—"}; patch hash ${p.patchHash ?? "—"}; runner ${p.runner ?? "—"}; GPU ${p.gpu ?? "—"}`);
  return `${out.join("\n")}\n`;
}
