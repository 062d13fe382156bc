import { describe, expect, it } from "vitest";
import {
  type AnswerPrefixes,
  answersVary,
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
});
