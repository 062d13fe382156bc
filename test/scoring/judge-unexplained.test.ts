import { describe, expect, it } from "vitest";
import { judgeUnexplained } from "../../src/scoring/judge-unexplained.js";

const CONTEXT = { runsServed: 4, allowed: 0, maxUnexplained: 0 };

describe("judgeUnexplained", () => {
  it("passes what the allowance allows, saying so", () => {
    const judgement = judgeUnexplained(
      { count: 3, compared: 120, pValue: 0.001, baselineVaries: true, baselineNovel: 0, baselineCompared: 120 },
      { ...CONTEXT, allowed: 0.05, maxUnexplained: 0.05 },
    );
    expect(judgement).toMatchObject({ reason: null, rule: "allowance" });
    expect(judgement.statement).toBe("3 of 120 answers (2.5%) are none the baseline gave: within gate.maxUnexplained 5%");
  });

  it("leaves one or two odd answers of an engine whose four runs never varied to its own chance", () => {
    // llama.cpp's CPU server, 16 prompts, 4 slots: the baseline answered alike in all 64, the candidate parted once.
    for (const count of [1, 2]) {
      const judgement = judgeUnexplained(
        { count, compared: 64, pValue: count === 1 ? 0.5 : 0.25, baselineVaries: false, baselineNovel: 0, baselineCompared: 64 },
        CONTEXT,
      );
      expect(judgement.reason).toBeNull();
      expect(judgement.rule).toBe("within-variation");
      // 64 alike answers still allow a rate up to 4.6%: up to 7 odd answers of 64 are within it.
      expect(judgement.limit).toBe(7);
      expect(judgement.statement).toContain("within the engine's own variation");
      expect(judgement.statement).toContain(
        "it gives at most 7 of 64 (odd answers at most 4.6% of the time, going by the baseline's 0 of 64",
      );
    }
  });

  it("fails a share far above the baseline's own variation, whatever the shuffle says", () => {
    // Unique filler in three runs of four on 14 of 30 prompts: every filler answer matches nothing, wherever a shuffle puts it.
    const judgement = judgeUnexplained(
      { count: 42, compared: 120, pValue: 0.5, baselineVaries: true, baselineNovel: 1, baselineCompared: 120 },
      { ...CONTEXT, breakdown: "parted or stopped, timed to there: p2 run 2" },
    );
    expect(judgement.rule).toBe("variation");
    expect(judgement.reason).toBe(
      "42 of 120 answers (35%) are none the baseline gave (parted or stopped, timed to there: p2 run 2), far more than the engine's " +
        "own variation gives, at most 10 of 120 (odd answers at most 3.9% of the time, going by the baseline's 1 of 120 answers its " +
        "other runs do not explain), and above gate.maxUnexplained 0%",
    );
  });

  it("fails on the shuffle alone where the odd answers sit apart from the baseline's", () => {
    const judgement = judgeUnexplained(
      { count: 6, compared: 120, pValue: 0.004, baselineVaries: true, baselineNovel: 4, baselineCompared: 120 },
      CONTEXT,
    );
    expect(judgement.rule).toBe("shuffle");
    expect(judgement.reason).toContain(
      "more than the engine's own answers show: shuffling which answers came from which engine gave as many in 0.4% of shuffles, under 1%",
    );
    expect(judgement.reason).not.toContain("far more");
  });

  it("holds every odd answer against a round of one run, unless a calibration measured the engine's own rate", () => {
    const answers = { count: 1, compared: 30, pValue: 0.5, baselineVaries: false, baselineNovel: 0, baselineCompared: 0 };
    const alone = judgeUnexplained(answers, { ...CONTEXT, runsServed: 1 });
    expect(alone.rule).toBe("one-run");
    expect(alone.reason).toBe(
      "1 of 30 answers (3.3%) are none the baseline gave, with one run the baseline's own answers show nothing of its variation, and " +
        "above gate.maxUnexplained 0%",
    );
    const calibrated = judgeUnexplained(answers, { ...CONTEXT, runsServed: 1, calibration: { count: 12, compared: 600 } });
    expect(calibrated.rule).toBe("within-variation");
    expect(calibrated.statement).toContain("12 of 600 in the calibration's A/A rounds");
    const many = judgeUnexplained({ ...answers, count: 9 }, { ...CONTEXT, runsServed: 1, calibration: { count: 12, compared: 600 } });
    expect(many.rule).toBe("variation");
  });
});
