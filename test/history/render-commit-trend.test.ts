import { describe, expect, it } from "vitest";
import { type TrendPoint, renderCommitTrend } from "../../src/history/render-commit-trend.js";

const point = (headSha: string, roundScore: number | null, failureKind: string | null = null): TrendPoint => ({
  headSha: headSha.padEnd(40, "0"),
  roundScore,
  gatePassed: (roundScore ?? 0) >= 1.05,
  failureKind,
});

describe("renderCommitTrend", () => {
  it("shows each earlier commit's score, oldest first, ending with this commit's", () => {
    const points = [point("1a2b3c4", 1.05), point("5d6e7f8", 1.12), point("9abcdef", 1.18)];
    expect(renderCommitTrend(points, { currentSha: "9abcdef".padEnd(40, "0") })).toBe(
      "Earlier commits: 1.05× (`1a2b3c4`) → 1.12× (`5d6e7f8`) → **1.18×** (this commit)",
    );
  });

  it("says nothing on a pull request's first scored commit", () => {
    expect(renderCommitTrend([point("9abcdef", 1.18)], { currentSha: "9abcdef".padEnd(40, "0") })).toBeNull();
    expect(renderCommitTrend([], { currentSha: "9abcdef".padEnd(40, "0") })).toBeNull();
  });

  it("names a failed round's kind instead of a score, and elides the oldest past the limit", () => {
    const points = [point("1111111", 1.01), point("2222222", 1.02), point("3333333", null, "cuda_oom"), point("4444444", 1.2)];
    expect(renderCommitTrend(points, { currentSha: "4444444".padEnd(40, "0"), limit: 3 })).toBe(
      "Earlier commits: … → 1.02× (`2222222`) → ✗ cuda oom (`3333333`) → **1.20×** (this commit)",
    );
  });

  it("shows the earlier commits alone when this commit has no point yet", () => {
    expect(renderCommitTrend([point("1111111", 0.99)], { currentSha: "f".repeat(40) })).toBe("Earlier commits: 0.99× (`1111111`)");
  });
});
