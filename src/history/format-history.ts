import type { StoredCard } from "../store/card-history.js";
import { formatTimes } from "../scorecard/render/describe-card.js";

/*
 * `speedgate history` output: an aligned table for people, CSV for spreadsheets and scripts. CSV cells
 * are quoted per RFC 4180, and a cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR)
 * is prefixed with ' : runner and GPU names come from the runner, which a pull request may influence.
 * The score is the headline scenario's in a round with scenarios; the scenarios column says how many passed.
 */

export const HISTORY_COLUMNS = [
  "recorded_at",
  "pull_request",
  "head_sha",
  "run_id",
  "run_attempt",
  "round_score",
  "interval_low",
  "interval_high",
  "gate",
  "min_round_score",
  "scenarios_total",
  "scenarios_passed",
  "failure_kind",
  "image_digest",
  "patch_hash",
  "runner",
  "gpu",
] as const;

function cells(card: StoredCard): Record<(typeof HISTORY_COLUMNS)[number], string> {
  return {
    recorded_at: card.recordedAt.toISOString(),
    pull_request: String(card.pullRequest),
    head_sha: card.headSha,
    run_id: String(card.runId),
    run_attempt: String(card.runAttempt),
    round_score: card.roundScore === null ? "" : String(card.roundScore),
    interval_low: card.interval ? String(card.interval.low) : "",
    interval_high: card.interval ? String(card.interval.high) : "",
    gate: card.gate.passed ? "passed" : "failed",
    min_round_score: String(card.gate.minRoundScore),
    scenarios_total: card.scenarios ? String(card.scenarios.total) : "",
    scenarios_passed: card.scenarios ? String(card.scenarios.passed) : "",
    failure_kind: card.failure?.kind ?? "",
    image_digest: card.imageDigest ?? "",
    patch_hash: card.patchHash ?? "",
    runner: card.runner ?? "",
    gpu: card.gpu ?? "",
  };
}

function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function formatHistoryCsv(cards: readonly StoredCard[]): string {
  const lines = [HISTORY_COLUMNS.join(",")];
  for (const card of cards) {
    const row = cells(card);
    lines.push(HISTORY_COLUMNS.map((column) => csvCell(row[column])).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** Control characters would move the terminal's cursor or recolour it: shown as "?". */
function printable(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

export function formatHistoryTable(cards: readonly StoredCard[]): string {
  if (cards.length === 0) return "no cards recorded\n";
  const header = ["recorded (UTC)", "PR", "commit", "run", "score", "interval", "gate", "scenarios", "failure", "runner", "GPU"];
  const rows = cards.map((card) => [
    card.recordedAt
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d{3}Z$/, ""),
    `#${card.pullRequest}`,
    card.headSha.slice(0, 12),
    card.runAttempt > 1 ? `${card.runId}/${card.runAttempt}` : String(card.runId),
    formatTimes(card.roundScore),
    card.interval ? `${formatTimes(card.interval.low)}–${formatTimes(card.interval.high)}` : "—",
    card.gate.passed ? "passed" : "failed",
    card.scenarios ? `${card.scenarios.total} (${card.scenarios.passed} passed)` : "",
    card.failure?.kind ?? "",
    printable(card.runner ?? ""),
    printable(card.gpu ?? ""),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (values: readonly string[]): string =>
    values
      .map((value, column) => (column === 4 || column === 1 ? value.padStart(widths[column] ?? 0) : value.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return `${[line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n")}\n`;
}
