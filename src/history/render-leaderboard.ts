import { markdownTable } from "markdown-table";
import { formatTimes } from "../scorecard/describe-card.js";

/** The card that stands for a pull request (the lower median of its newest commit's runs), as the leaderboard shows it. */
export interface LeaderboardEntry {
  pullRequest: number;
  headSha: string;
  roundScore: number | null;
  interval: { low: number; high: number; confidence: number } | null;
  gatePassed: boolean;
  failureKind: string | null;
  runUrl: string | null;
  recordedAt: Date;
  /** Runs of that commit the card was chosen from. */
  runs: number;
}

/** Marks the issue body as the app's, so the app finds and edits its own leaderboard. */
export const LEADERBOARD_MARKER = "<!-- speedgate-leaderboard -->";

function scoreCell(entry: LeaderboardEntry): string {
  const of = entry.runs > 1 ? ` (median of ${entry.runs} runs)` : "";
  if (entry.failureKind !== null) return `✗ ${entry.failureKind.replace(/_/g, " ")}${of}`;
  const score = formatTimes(entry.roundScore);
  return `${entry.runUrl ? `[${score}](${entry.runUrl})` : score}${of}`;
}

function intervalCell(entry: LeaderboardEntry): string {
  if (!entry.interval) return "—";
  return `${formatTimes(entry.interval.low)} – ${formatTimes(entry.interval.high)} (${Math.round(entry.interval.confidence * 100)}%)`;
}

/**
 * The body of a repository's pinned leaderboard issue: for each open pull request, the median round
 * score of its newest commit's runs (the lower median, a real run: re-running the same code does not
 * fish the noise upward), best first (ties: the one scored first), with its gate and commit. Pure: the
 * caller passes the time.
 */
export function renderLeaderboard(input: { repository: string; entries: readonly LeaderboardEntry[]; updatedAt: Date }): string {
  const ranked = [...input.entries].sort(
    (a, b) => (b.roundScore ?? Number.NEGATIVE_INFINITY) - (a.roundScore ?? Number.NEGATIVE_INFINITY) || a.recordedAt.getTime() - b.recordedAt.getTime(),
  );
  const lines = [LEADERBOARD_MARKER, `## speedgate leaderboard`, ""];
  if (ranked.length === 0) {
    lines.push("No open pull request has been scored yet.");
  } else {
    lines.push(
      "Each open pull request's round score, measured by speedgate against the unpatched baseline: of its newest commit's runs, the median (the lower one when they are even), so re-running the same code does not raise it.",
      "",
      markdownTable(
        [
          ["#", "Pull request", "Round score", "Interval", "Gate", "Commit", "Scored"],
          ...ranked.map((entry, index) => [
            String(index + 1),
            `#${entry.pullRequest}`,
            scoreCell(entry),
            intervalCell(entry),
            entry.gatePassed ? "✅ passed" : "❌ not passed",
            `\`${entry.headSha.slice(0, 12)}\``,
            entry.recordedAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
          ]),
        ],
        { align: ["r", "l", "r", "l", "l", "l", "l"] },
      ),
    );
  }
  lines.push("", `_Updated ${input.updatedAt.toISOString().replace(/\.\d{3}Z$/, "Z")} by speedgate. Closed pull requests leave the board._`, "");
  return lines.join("\n");
}
