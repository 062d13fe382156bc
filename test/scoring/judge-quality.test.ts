import { describe, expect, it } from "vitest";
import { type QuestionOutcome, judgeQuality, usuallyRight } from "../../src/scoring/judge-quality.js";

/** n questions, each answered the same way in every one of `runs` runs. */
function questions(spec: { both: number; baselineOnly: number; candidateOnly: number; neither: number }, runs = 4): QuestionOutcome[] {
  const out: QuestionOutcome[] = [];
  const add = (count: number, baseline: boolean, candidate: boolean): void => {
    for (let i = 0; i < count; i++) {
      const id = `q${String(out.length + 1).padStart(3, "0")}`;
      out.push({ id, baseline: Array(runs).fill(baseline), candidate: Array(runs).fill(candidate) });
    }
  };
  add(spec.both, true, true);
  add(spec.baselineOnly, true, false);
  add(spec.candidateOnly, false, true);
  add(spec.neither, false, false);
  return out;
}

describe("usuallyRight", () => {
  it("is right in at least half of the runs it was asked, ignoring runs it was not asked", () => {
    expect(usuallyRight([true, true, false, false])).toBe(true);
    expect(usuallyRight([true, false, false, false])).toBe(false);
    expect(usuallyRight([false, null, true, null])).toBe(true);
    expect(usuallyRight([null, null])).toBeNull();
  });
});

describe("judgeQuality", () => {
  it("says the Quality row in one line: accuracy, the difference with its interval, the questions that changed, held", () => {
    const judgement = judgeQuality(questions({ both: 177, baselineOnly: 4, candidateOnly: 3, neither: 16 }), 0.02);
    expect(judgement).toMatchObject({ compared: 200, baselineRight: 181, candidateRight: 180, dropped: false, reason: null });
    expect(judgement.line).toBe(
      "accuracy 181/200 → 180/200, −0.5 points [−3.7, +2.6]; 7 questions answered differently (4 for the baseline, 3 for the " +
        "candidate): held",
    );
    expect(judgement.baselineOnly).toEqual(["q178", "q179", "q180", "q181"]);
  });

  it("fails a significant drop of at least maxDrop, naming the questions the candidate lost", () => {
    const judgement = judgeQuality(questions({ both: 150, baselineOnly: 11, candidateOnly: 1, neither: 38 }), 0.02);
    expect(judgement.dropped).toBe(true);
    expect(judgement.pValue).toBeLessThan(0.01);
    expect(judgement.line).toMatch(/^accuracy 161\/200 → 151\/200, −5\.0 points \[−8\.7, −1\.5\]; 12 questions answered differently/);
    expect(judgement.line).toMatch(/dropped \(McNemar p = 0\.003 < 0\.05, and 5\.0 points ≥ gate\.quality\.maxDrop 2 points\)$/);
    expect(judgement.reason).toMatch(/the candidate got wrong q151, q152, q153, q154, q155, q156, q157, q158, q159, q160 and 1 more$/);
  });

  it("holds a significant drop smaller than maxDrop, and says why", () => {
    // 1,000 questions: 30 lost against 10 gained is significant, but 2 points is not over a 3-point allowance.
    const judgement = judgeQuality(questions({ both: 800, baselineOnly: 30, candidateOnly: 10, neither: 160 }, 1), 0.03);
    expect(judgement.pValue).toBeLessThan(0.05);
    expect(judgement.dropped).toBe(false);
    expect(judgement.line).toMatch(/held \(McNemar p = 0\.00\d, but a drop of 2\.0 points is under gate\.quality\.maxDrop 3 points\)$/);
  });

  it("never fails an improvement, however large", () => {
    const judgement = judgeQuality(questions({ both: 100, baselineOnly: 0, candidateOnly: 50, neither: 50 }), 0.02);
    expect(judgement.dropped).toBe(false);
    expect(judgement.difference).toBeCloseTo(0.25, 10);
  });

  it("holds a drop that the engine's own variation explains (not significant), even past maxDrop", () => {
    const judgement = judgeQuality(questions({ both: 40, baselineOnly: 4, candidateOnly: 1, neither: 5 }), 0.02);
    expect(judgement.difference).toBeCloseTo(-0.06, 10);
    expect(judgement.pValue).toBeGreaterThan(0.05);
    expect(judgement.dropped).toBe(false);
  });

  it("counts a question by the engine's usual answer over its runs, and leaves out one an engine was never asked", () => {
    const judgement = judgeQuality(
      [
        // Right in 3 of 4 baseline runs and 2 of 4 candidate runs: right for both.
        { id: "a", baseline: [true, true, true, false], candidate: [true, false, true, false] },
        // Right in 1 of 4 candidate runs: lost.
        { id: "b", baseline: [true, true, true, true], candidate: [false, false, true, false] },
        // The candidate never reached it: not compared.
        { id: "c", baseline: [true, true, true, true], candidate: [null, null, null, null] },
      ],
      0.02,
    );
    expect(judgement).toMatchObject({ compared: 2, baselineRight: 2, candidateRight: 1, baselineOnly: ["b"], candidateOnly: [] });
  });

  it("says so when no question was compared", () => {
    expect(judgeQuality([], 0.02)).toMatchObject({ compared: 0, dropped: false, line: "no question was answered by both engines" });
  });
});
