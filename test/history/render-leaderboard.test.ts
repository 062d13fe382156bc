import { describe, expect, it } from "vitest";
import { LEADERBOARD_MARKER, type LeaderboardEntry, renderLeaderboard } from "../../src/history/render-leaderboard.js";

const entry = (
  pullRequest: number,
  roundScore: number | null,
  minute: number,
  extra: Partial<LeaderboardEntry> = {},
): LeaderboardEntry => ({
  pullRequest,
  headSha: String(pullRequest).repeat(40).slice(0, 40),
  roundScore,
  interval: roundScore === null ? null : { low: roundScore - 0.05, high: roundScore + 0.05, confidence: 0.95 },
  gatePassed: (roundScore ?? 0) >= 1.05,
  failureKind: null,
  runUrl: null,
  recordedAt: new Date(Date.UTC(2026, 10, 29, 12, minute)),
  runs: 1,
  commits: 1,
  ...extra,
});

describe("renderLeaderboard", () => {
  it("ranks the best first, ties by who was scored first, failures last", () => {
    const body = renderLeaderboard({
      repository: "octo/engine",
      updatedAt: new Date("2026-11-29T13:00:00Z"),
      entries: [
        entry(3, null, 1, { failureKind: "build_failed" }),
        entry(7, 1.21, 5),
        entry(2, 1.21, 2, { runUrl: "https://github.com/octo/engine/actions/runs/9", runs: 3, commits: 2 }),
        entry(5, 0.98, 3),
      ],
    });
    expect(body).toMatchSnapshot();
    expect(body.startsWith(LEADERBOARD_MARKER)).toBe(true);
    const order = [...body.matchAll(/^\|\s+(\d+) \| #(\d+)/gm)].map((match) => [match[1], match[2]]);
    expect(order).toEqual([
      ["1", "2"],
      ["2", "7"],
      ["3", "5"],
      ["4", "3"],
    ]);
  });

  it("says so when no open pull request was scored", () => {
    const body = renderLeaderboard({ repository: "octo/engine", entries: [], updatedAt: new Date("2026-11-29T13:00:00Z") });
    expect(body).toContain("No open pull request has been scored yet.");
    expect(body).not.toContain("|");
  });
});
