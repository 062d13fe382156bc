import { describe, expect, it } from "vitest";
import {
  type AnswerPrefixes,
  answersVary,
  candidateRepeats,
  distinctAnswers,
  isBaselineIndex,
  isUnexplainedAnswer,
  poolIndex,
  runsInPool,
} from "../../src/scoring/pooled-answers.js";

/*
 * Three runs pooled: the baseline's answers at 0..2, the candidate's at 3..5. The baseline answered A,
 * A, B (B parts from A); the candidate A, nothing (it failed), and C, which parts from both.
 */
const POOL: AnswerPrefixes = [[1, 3], [0, 3], [], [0, 1], null, []];

describe("pooled answers", () => {
  it("places the baseline's runs first and the candidate's after them", () => {
    expect(runsInPool(POOL)).toBe(3);
    expect([poolIndex(3, "baseline", 2), poolIndex(3, "candidate", 0), poolIndex(3, "candidate", 2)]).toEqual([2, 3, 5]);
    expect([0, 2, 3, 5].map((index) => isBaselineIndex(3, index))).toEqual([true, true, false, false]);
  });

  it("counts each engine's distinct answers, equal ones once and a missing one not at all", () => {
    expect(distinctAnswers(POOL, "baseline")).toBe(2);
    expect(distinctAnswers(POOL, "candidate")).toBe(2);
    expect(answersVary(POOL)).toBe(true);
    const steady: AnswerPrefixes = [
      [1, 2, 3],
      [0, 2, 3],
      [0, 1, 3],
      [0, 1, 2],
    ];
    expect(answersVary(steady)).toBe(false);
  });

  it("calls a candidate answer unexplained only when it is there and no baseline answer starts it", () => {
    expect([0, 1, 2].map((run) => isUnexplainedAnswer(POOL, run))).toEqual([false, false, true]);
    // Another candidate answer starting it explains nothing: only the baseline's do.
    expect(isUnexplainedAnswer([[], [], [3], [2]], 1)).toBe(true);
  });

  it("reads whether answers vary from the baseline's answers alone: the candidate's own variety is the patch's to make", () => {
    // The baseline answered A in three runs; the candidate A, then F and G (unique filler: neither starts the other).
    const filler: AnswerPrefixes = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2], [], []];
    expect(distinctAnswers(filler, "candidate")).toBe(3);
    expect(answersVary(filler)).toBe(false);
    expect([1, 2].map((run) => candidateRepeats(filler, run))).toEqual([false, false]);
  });

  it("tells a continuation the candidate gives twice from one it gives once, and from one other answer given every time", () => {
    // Candidate answers (3..5): B, B again, and C; the baseline's (0..2) all A.
    const pool: AnswerPrefixes = [[1, 2], [0, 2], [0, 1], [4], [3], []];
    expect([0, 1, 2].map((run) => candidateRepeats(pool, run))).toEqual([true, true, false]);
    // A shorter answer the longer one starts with counts as the same continuation taken again.
    expect(candidateRepeats([[1], [0], [], [2], [], [3]], 0)).toBe(true);
    // D in every run: the candidate's answers do not vary, and D is not one of two continuations.
    expect(
      candidateRepeats(
        [
          [1, 2],
          [0, 2],
          [0, 1],
          [4, 5],
          [3, 5],
          [3, 4],
        ],
        0,
      ),
    ).toBe(false);
  });
});
