import { describe, expect, it } from "vitest";
import { matchBranches } from "../../src/scoring/match-branches.js";
import { textStream } from "../support/make-text-records.js";

/** `count` one-token words; from `from` on, words of another continuation named `tail`. */
const words = (count: number, from: number | null = null, tail = "b"): string[] =>
  Array.from({ length: count }, (_, index) => (from !== null && index >= from ? ` ${tail}${index}` : ` w${index}`));
const answer = (pieces: string[]) => textStream(pieces, { itlMs: 5 });

describe("matchBranches: a candidate answer held to every answer the baseline gave", () => {
  it("times an answer the baseline gave only in another run against that run, and prefers the same run when it explains too", () => {
    const a = answer(words(40));
    const b = answer(words(30, 10));
    const analysis = matchBranches({ baseline: [a, b, a], candidate: [answer(words(30, 10)), answer(words(40)), answer(words(40))] });
    expect(analysis.candidate.map((branch) => branch && [branch.match, branch.referenceRun])).toEqual([
      ["other", 1],
      ["other", 0],
      ["same", 2],
    ]);
    expect(analysis.baselineAnswers).toBe(2);
  });

  it(
    "explains a longer answer by a baseline answer that is its start, but " +
      "calls one that stops where every baseline answer ran on a cut",
    () => {
      const analysis = matchBranches({
        baseline: [answer(words(30)), answer(words(30))],
        candidate: [answer(words(36)), answer(words(27))],
      });
      expect(analysis.candidate[0]).toMatchObject({ match: "same", agreedTokens: 30, cut: false });
      expect(analysis.candidate[1]).toMatchObject({ match: "none", agreedTokens: 27, cut: true });
    },
  );

  it(
    "takes the answer it follows longest for one that parts from all, and " + "tells whether the baseline's own answers part at that token",
    () => {
      const analysis = matchBranches({
        baseline: [answer(words(40)), answer(words(40, 12, "x")), answer(words(40, 20, "y"))],
        // Parts at token 13 where runs 1 and 2 part from each other; then another that parts at 25, where none do.
        candidate: [answer(words(40, 12, "z")), answer(words(40, 25, "z")), null],
      });
      expect(analysis.candidate[0]).toMatchObject({
        match: "none",
        referenceRun: 0,
        agreedTokens: 12,
        cut: false,
        baselinePartsHere: true,
      });
      expect(analysis.candidate[1]).toMatchObject({ match: "none", referenceRun: 0, agreedTokens: 25, baselinePartsHere: false });
      expect(analysis.candidate[2]).toBeNull();
      expect(analysis.baselineAnswers).toBe(3);
    },
  );

  it("keeps the pooled prefix relation, baseline runs first, with null where an engine gave no answer", () => {
    const analysis = matchBranches({
      baseline: [answer(words(20)), { ok: false, kind: "http_error", reason: "HTTP 500" }],
      candidate: [answer(words(25)), answer(words(20, 5))],
    });
    // Candidate run 1 (index 2) starts with the baseline's run-1 answer (index 0); run 2's answer (index 3) with nothing.
    expect(analysis.prefixes).toEqual([[], null, [0], []]);
  });

  it("compares nothing where the records keep no text, so the plain length rules apply", () => {
    const bare = {
      ok: true as const,
      chunks: [{ tMs: 5, tokens: 10 }],
      outputTokens: 10,
      finishReason: "stop",
      endMs: 6,
      tokensEstimated: false,
    };
    const analysis = matchBranches({ baseline: [bare], candidate: [bare] });
    expect(analysis.candidate).toEqual([null]);
    expect(analysis.baselineAnswers).toBe(0);
  });
});
