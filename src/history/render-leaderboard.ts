import { markdownTable } from "markdown-table";
import { formatTimes } from "../scorecard/render/describe-card.js";

/** The card that stands for a pull request (the lower median of all its commits' runs), as the leaderboard shows it. */
export interface LeaderboardEntry {
  pullRequest: number;
  headSha: string;
  roundScore: number | null;
  interval: { low: number; high: number; confidence: number } | null;
  gatePassed: boolean;
  failureKind: string | null;
  runUrl: string | null;
  recordedAt: Date;
  /** Runs of the pull request the card was chosen from, and the commits they scored. */
  runs: number;
  commits: number;
}

/** Marks the issue body as the app's, so the app finds and edits its own leaderboard. */
export const LEADERBOARD_MARKER = "<!-- speedgate-leaderboard -->";

function scoreCell(entry: LeaderboardEntry): string {
  const of = entry.runs > 1 ? ` (median of ${entry.runs} runs${entry.commits > 1 ? ` of ${entry.commits} commits` : ""})` : "";
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
 * score of all its runs, every commit's (the lower median, a real run: neither re-running the same
 * code nor pushing no-op commits fishes the noise upward), best first (ties: the one scored first),
 * with its gate and the commit of the run that stands. Pure: the caller passes the time.
 */
export function renderLeaderboard(input: { repository: string; entries: readonly LeaderboardEntry[]; updatedAt: Date }): string {
  const ranked = [...input.entries].sort(
    (a, b) =>
      (b.roundScore ?? Number.NEGATIVE_INFINITY) - (a.roundScore ?? Number.NEGATIVE_INFINITY) ||
      a.recordedAt.getTime() - b.recordedAt.getTime(),
  );
  const lines = [LEADERBOARD_MARKER, `## speedgate leaderboard`, ""];
  if (ranked.length === 0) {
    lines.push("No open pull request has been scored yet.");
  } else {
    lines.push(
      "Each open pull request's round score, measured by speedgate against the unpatched baseline: of all its runs, every commit's, " +
        "the median (the lower one when they are even), so neither re-running the same code nor pushing commits that change nothing " +
        "raises it; a real speed-up shows once its runs are most of the pull request's.",
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
  lines.push(
    "",
    `_Updated ${input.updatedAt.toISOString().replace(/\.\d{3}Z$/, "Z")} by speedgate. Closed pull requests leave the board._`,
    "",
  );
  return lines.join("\n");
}
