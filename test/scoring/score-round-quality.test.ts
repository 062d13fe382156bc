import { describe, expect, it } from "vitest";
import { answersJudgedByQuality } from "../../src/scoring/evaluate-gate.js";
import { scoreRound } from "../../src/scoring/score-round.js";
import { makePartingRound, makeQuestionOutcomes } from "../support/make-quality-round.js";

const GATE = { minRoundScore: 1, use: "round-score" as const, maxUnscored: 0.1, minPrompts: 10 };
const HELD = makeQuestionOutcomes({ total: 200, right: 160, lost: 4, gained: 3 });
const DROPPED = makeQuestionOutcomes({ total: 200, right: 160, lost: 12, gained: 1 });

function score(options: { answers?: "speed" | "quality"; quality?: ReturnType<typeof makeQuestionOutcomes> | null; cut?: number[] } = {}) {
  const { promptIds, runs } = makePartingRound({ partEvery: 3, ...(options.cut ? { cut: options.cut } : {}) });
  return scoreRound({
    promptIds,
    runs,
    tolerance: 0.9,
    gate: { ...GATE, ...(options.answers ? { answers: options.answers } : {}) },
    quality: options.quality ?? null,
  });
}

describe("gate.answers: quality in scoreRound", () => {
  it("by default (speed) an answer no baseline answer gives fails the unexplained rule, timed only up to where it parts", () => {
    const result = score({ quality: HELD });
    expect(result.quality?.dropped).toBe(false);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons.join("; ")).toMatch(/8 of 24 answers (.*) are none the baseline gave/);
    const parted = result.prompts[2]?.runs[0];
    expect(parted).toMatchObject({ match: "none", status: "scored", agreedTokens: 28, comparedTokens: 40 });
    // Over the 28 shared tokens the candidate is 1.5×, whatever its fast parted rest.
    expect(parted?.score).toBeCloseTo(1.5, 1);
  });

  it("with the question set judging (quality held) the same round passes, the parted answers timed at equal length like any other", () => {
    const result = score({ answers: "quality", quality: HELD });
    expect(result.gate.reasons).toEqual([]);
    expect(result.gate.passed).toBe(true);
    const parted = result.prompts[2]?.runs[0];
    expect(parted?.match).toBe("none");
    expect(parted?.score).toBeGreaterThan(2);
    expect(parted?.reason).toMatch(/^parted from every answer the baseline gave at token 29 of 40; timed at the full length/);
    // The unexplained answers are still counted, for the card to say so.
    expect(result.unexplained).toBe(4);
  });

  it("fails a significant drop in quality, and for that reason alone", () => {
    const result = score({ answers: "quality", quality: DROPPED });
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons).toHaveLength(1);
    expect(result.gate.reasons[0]).toMatch(
      /^quality dropped: accuracy 160\/200 → 149\/200, −5\.5 points .*the candidate got wrong q001, q002/,
    );
  });

  it("keeps the agreement rules on without a question set answered: none configured, or none answered by both engines", () => {
    expect(score({ answers: "quality", quality: null }).gate.passed).toBe(false);
    const unasked = HELD.map((question) => ({ ...question, candidate: question.candidate.map(() => null) }));
    const result = score({ answers: "quality", quality: unasked });
    expect(answersJudgedByQuality({ answers: "quality" }, result.quality)).toBe(false);
    expect(result.gate.passed).toBe(false);
    expect(result.prompts[2]?.runs[0]?.score).toBeCloseTo(1.5, 1);
  });

  it("still zeroes cuts: a candidate cutting 3 of 12 answers fails gate.maxUnscored whatever judges the answers", () => {
    const result = score({ answers: "quality", quality: HELD, cut: [0, 4, 7] });
    expect(result.belowTolerance).toBe(3);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons.join("; ")).toMatch(/3 of 12 prompts \(25%\) were not scored \(3 below tolerance\)/);
  });
});
