import { describe, expect, it } from "vitest";
import { type GateInput, type GateSettings, evaluateGate, gateBar, regressionReasons } from "../../src/scoring/evaluate-gate.js";
import { effectiveRegressionFloor, findRegressedPrompts } from "../../src/scoring/judge-regression.js";

const interval = { low: 0.97, high: 1.2, confidence: 0.95 };

/** Twenty prompts compared, none unscored, no failure: only the rule decides. */
function input(overrides: Partial<GateInput> = {}): GateInput {
  return {
    roundScore: 1.1,
    interval,
    promptsCompared: 20,
    unscored: 0,
    unscoredBreakdown: "",
    baselineFailure: null,
    noScoreReason: null,
    ...overrides,
  };
}

const settings = (overrides: Partial<GateSettings> = {}): GateSettings => ({
  minRoundScore: 1,
  use: "interval-low",
  maxUnscored: 0.1,
  minPrompts: 10,
  ...overrides,
});

describe("evaluateGate: the rule", () => {
  it("passes on the round score at the bar in round-score mode", () => {
    expect(evaluateGate(input({ roundScore: 1 }), settings({ use: "round-score" }))).toMatchObject({
      passed: true,
      reason: "round score 1.00× ≥ 1.00×",
      reasons: [],
      bar: 1,
    });
  });

  it("shows as many digits as it takes to tell a score just under the bar from it", () => {
    const result = evaluateGate(input({ roundScore: 0.99996 }), settings({ use: "round-score" }));
    expect(result).toMatchObject({ passed: false, reason: "round score 0.99996× < 1.00×" });
    expect(result.reason).not.toContain("1.00× < 1.00×");
  });

  it("uses the interval's low end in interval-low mode", () => {
    expect(evaluateGate(input(), settings())).toMatchObject({ passed: false, reason: "interval low 0.97× < 1.00×" });
    expect(evaluateGate(input({ interval: { ...interval, low: 1.01 } }), settings()).passed).toBe(true);
  });

  it("does not pass interval-low without an interval, rather than falling back to the score", () => {
    const result = evaluateGate(input({ interval: null, roundScore: 2 }), settings({ minPrompts: 1 }));
    expect(result.passed).toBe(false);
    expect(result.reason).toContain("no interval to gate on with fewer than 5 prompts");
  });

  it("raises the bar by the calibrated noise floor, and says by how much", () => {
    const noise = { floor: 0.0473, problems: [] };
    const below = evaluateGate(input({ roundScore: 1.047, noise }), settings({ use: "noise-floor" }));
    expect(below).toMatchObject({ passed: false, bar: 1.0473, reason: "round score 1.0470× < 1.0473× (1.00× + noise floor 4.7%)" });
    expect(evaluateGate(input({ roundScore: 1.05, noise }), settings({ use: "noise-floor" })).passed).toBe(true);
  });

  it("never passes on a calibration that does not fit the round", () => {
    const result = evaluateGate(
      input({ roundScore: 3, noise: { floor: 0.01, problems: ['it was measured on GPU "A100", this round ran on "H100"'] } }),
      settings({ use: "noise-floor" }),
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toContain("the calibration does not fit this round: it was measured on GPU");
  });
});

describe("evaluateGate: failures fail", () => {
  it("never passes when the candidate failed, whatever the score, and still says what the rule found", () => {
    const result = evaluateGate(
      input({
        roundScore: 1.34,
        interval: { ...interval, low: 1.3 },
        candidateFailure: "candidate engine failed at benchmark (exited with code 1)",
      }),
      settings(),
    );
    expect(result.passed).toBe(false);
    expect(result.reasons).toEqual(["the candidate engine failed: candidate engine failed at benchmark (exited with code 1)"]);
    expect(result.rule).toBe("interval low 1.30× ≥ 1.00×");
  });

  it("never passes with more than maxUnscored of the prompts unscored, and gives both reasons when the candidate also failed", () => {
    const result = evaluateGate(
      input({
        roundScore: 1.13,
        interval: { ...interval, low: 1.05 },
        unscored: 9,
        unscoredBreakdown: "9 below tolerance",
        candidateFailure: "candidate engine failed at benchmark (exited with code 1)",
      }),
      settings(),
    );
    expect(result.passed).toBe(false);
    expect(result.reasons).toHaveLength(2);
    expect(result.reasons[1]).toBe("9 of 20 prompts (45%) were not scored (9 below tolerance), more than gate.maxUnscored 10%");
  });

  it("shows a share just over maxUnscored with the digits that tell it from the limit", () => {
    const result = evaluateGate(
      input({ promptsCompared: 2500, unscored: 251, unscoredBreakdown: "251 zeroed", interval: { ...interval, low: 1.02 } }),
      settings(),
    );
    expect(result.reason).toBe("251 of 2500 prompts (10.04%) were not scored (251 zeroed), more than gate.maxUnscored 10%");
  });

  it("lets exactly maxUnscored of the prompts go unscored", () => {
    expect(
      evaluateGate(input({ interval: { ...interval, low: 1.02 }, unscored: 2, unscoredBreakdown: "2 zeroed" }), settings()).passed,
    ).toBe(true);
    expect(
      evaluateGate(input({ interval: { ...interval, low: 1.02 }, unscored: 3, unscoredBreakdown: "3 zeroed" }), settings()).passed,
    ).toBe(false);
  });

  it("does not give a verdict on too few prompts", () => {
    const result = evaluateGate(input({ promptsCompared: 9, interval: { ...interval, low: 1.5 } }), settings());
    expect(result).toMatchObject({ passed: false, reason: "too few prompts for a verdict: 9 compared, gate.minPrompts is 10" });
  });

  it("never passes on an infrastructure failure, even above the bar, and says it was not the patch", () => {
    const result = evaluateGate(
      input({ roundScore: 3, infrastructureFailure: "the Docker daemon went away" }),
      settings({ minRoundScore: 0.5, use: "round-score" }),
    );
    expect(result).toMatchObject({
      passed: false,
      reason: "the infrastructure failed, not the patch: the Docker daemon went away",
      rule: null,
    });
  });

  it("never passes without a score or with a failed baseline", () => {
    expect(
      evaluateGate(input({ roundScore: null, interval: null, noScoreReason: "candidate died" }), settings({ minRoundScore: 0.5 })),
    ).toMatchObject({
      passed: false,
      reason: "no round score: candidate died",
    });
    expect(evaluateGate(input({ roundScore: 3, baselineFailure: "baseline engine exited" }), settings({ minRoundScore: 0.5 })).passed).toBe(
      false,
    );
  });
});

describe("evaluateGate: the agreement rules", () => {
  const passing = { interval: { ...interval, low: 1.05 } };

  it(
    "fails a round whose median answer is not wholly the baseline's " +
      "(gate.minAgreement 100% by default), naming the key, and passes at it",
    () => {
      const result = evaluateGate(input({ ...passing, medianAgreement: 0.9 }), settings());
      expect(result).toMatchObject({ passed: false, minAgreement: 1 });
      expect(result.reasons).toEqual([
        "median agreement 90% < gate.minAgreement 100%: most answers are not the baseline's over the compared length",
      ]);
      expect(evaluateGate(input({ ...passing, medianAgreement: 1 }), settings()).passed).toBe(true);
      // A repository that accepts a numerics-changing patch lowers it; 0 turns the rule off; a round whose answers were not compared by
      // text has no median to hold.
      expect(evaluateGate(input({ ...passing, medianAgreement: 0.75 }), settings({ minAgreement: 0.75 })).passed).toBe(true);
      expect(evaluateGate(input({ ...passing, medianAgreement: 0.1 }), settings({ minAgreement: 0 })).passed).toBe(true);
      expect(evaluateGate(input({ ...passing, medianAgreement: null }), settings()).passed).toBe(true);
    },
  );

  it("holds the median with partings the baseline's own runs show counted as agreeing, and says so when that is what fails", () => {
    expect(evaluateGate(input({ ...passing, medianAgreement: 0.8, medianAgreementExplained: 1 }), settings()).passed).toBe(true);
    const result = evaluateGate(input({ ...passing, medianAgreement: 0.6, medianAgreementExplained: 0.85 }), settings());
    expect(result.reasons).toEqual([
      "median agreement 85% (counting partings the baseline's own runs show as agreement) < gate.minAgreement 100%: most answers are " +
        "not the baseline's over the compared length",
    ]);
  });

  it(
    "fails a round with a cut or parting the baseline does not explain " +
      "(gate.maxUnexplained 0 by default), within gate.maxUnscored or not",
    () => {
      const result = evaluateGate(
        input({ ...passing, unscored: 2, unexplained: 2, unexplainedBreakdown: "below tolerance: p3, p9" }),
        settings(),
      );
      expect(result.passed).toBe(false);
      expect(result.reasons).toEqual([
        "2 of 20 prompts (10%) were cut short or parted where the baseline's own answers are not (below tolerance: p3, p9), more than " +
          "gate.maxUnexplained 0%",
      ]);
      expect(evaluateGate(input({ ...passing, unscored: 2, unexplained: 2 }), settings({ maxUnexplained: 0.1 })).passed).toBe(true);
      expect(evaluateGate(input({ ...passing, unscored: 2, unexplained: 0 }), settings()).passed).toBe(true);
    },
  );

  it("relaxes both rules to what the baseline showed against itself in a calibration that fits, and only then", () => {
    const selfAgreement = { lowestMedianAgreement: 0.7, mostDisagreed: 0.1 };
    const noise = { floor: 0, problems: [], selfAgreement };
    const calibrated = evaluateGate(
      input({ roundScore: 1.1, noise, medianAgreement: 0.72, unexplained: 2, unexplainedBreakdown: "diverged: p1, p2" }),
      settings({ use: "noise-floor" }),
    );
    expect(calibrated.passed).toBe(true);
    const lower = evaluateGate(
      input({ roundScore: 1.1, noise, medianAgreement: 0.65, unexplained: 3, unexplainedBreakdown: "diverged: p1, p2, p3" }),
      settings({ use: "noise-floor" }),
    );
    expect(lower.reasons).toEqual([
      "median agreement 65% < gate.minAgreement 70% (lowered from 100% to the baseline's own lowest in calibration): most answers " +
        "are not the baseline's over the compared length",
      "3 of 20 prompts (15%) were cut short or parted where the baseline's own answers are not (diverged: p1, p2, p3), more than the " +
        "10% the baseline showed against itself in calibration",
    ]);
    const misfit = evaluateGate(
      input({ roundScore: 1.1, noise: { ...noise, problems: ["another GPU"] }, medianAgreement: 0.72 }),
      settings({ use: "noise-floor" }),
    );
    expect(misfit.reasons).toContain(
      "median agreement 72% < gate.minAgreement 100%: most answers are not the baseline's over the compared length",
    );
  });
});

/*
 * #39: a workload a pull request does not target had to prove a speedup to pass (its interval's low end at
 * 0.95, and with a CPU runner's calibration a bar of 0.95 × 1.2792 = 1.2152×). A guard is a non-inferiority
 * test: it fails only when the candidate is surely slower than 1 − gate.margin, and the noise floor lowers
 * its bar where it raises a target's.
 */
describe("evaluateGate: a scenario's role", () => {
  const unchanged = { low: 0.9, high: 1.08, confidence: 0.95 };

  it("passes a guard within noise of 1.0 that the same bar as a target fails", () => {
    const within = input({ roundScore: 0.99, interval: unchanged });
    expect(evaluateGate(within, settings({ minRoundScore: 0.95 })).passed).toBe(false);
    expect(evaluateGate(within, settings({ role: "guard" }))).toMatchObject({
      passed: true,
      bar: 0.95,
      reason: "interval high 1.08× ≥ 0.95× (guard: not slower than 1 − gate.margin 5%)",
    });
  });

  it("fails a guard whose interval lies wholly below 1 − margin, and takes its margin from gate.margin", () => {
    const slower = input({ roundScore: 0.85, interval: { low: 0.8, high: 0.93, confidence: 0.95 } });
    expect(evaluateGate(slower, settings({ role: "guard" }))).toMatchObject({
      passed: false,
      reasons: ["interval high 0.93× < 0.95× (guard: not slower than 1 − gate.margin 5%)"],
    });
    expect(evaluateGate(slower, settings({ role: "guard", margin: 0.1 }))).toMatchObject({ passed: true, bar: 0.9 });
  });

  it("lowers a calibrated guard's bar by the noise floor where a target's is raised: an unchanged engine passes either way", () => {
    // The CPU runner: a floor of +27.9% made 0.95 a bar of 1.2152× for a scenario no patch targets.
    const noise = { floor: 0.2792, problems: [] };
    const unlucky = input({ roundScore: 0.8, interval: unchanged, noise });
    const guard = evaluateGate(unlucky, settings({ role: "guard", use: "noise-floor" }));
    expect(guard.passed).toBe(true);
    expect(guard.bar).toBeCloseTo(0.95 / 1.2792, 6);
    expect(guard.reason).toBe("round score 0.80× ≥ 0.74× (guard: not slower than 1 − gate.margin 5%, lowered by the noise floor 27.9%)");
    expect(evaluateGate(unlucky, settings({ minRoundScore: 0.95, use: "noise-floor" })).passed).toBe(false);
    // Surely slower, beyond what the runner's noise explains: the guard fails.
    expect(
      evaluateGate(input({ roundScore: 0.7, interval: unchanged, noise }), settings({ role: "guard", use: "noise-floor" })).passed,
    ).toBe(false);
  });

  it("leaves a target as it was: minRoundScore is its bar, margin is not read", () => {
    expect(evaluateGate(input(), settings({ role: "target", margin: 0.5 }))).toMatchObject({ passed: false, bar: 1 });
  });
});

describe("evaluateGate: the minority-regression rule beside the round's own verdict", () => {
  const slowMinority = (count: number, score: number) => ({
    compared: 20,
    regressed: Array.from({ length: count }, (_, index) => ({ id: `p${index}`, score })),
    ratios: { e2eP90: 1, throughput: 1 },
  });

  it("fails a round whose median clears the bar while a minority got much slower", () => {
    const gate = evaluateGate(input({ roundScore: 1.1, regression: slowMinority(4, 0.5) }), settings());
    expect(gate.passed).toBe(false);
    expect(gate.reasons.some((reason) => reason.startsWith("4 of 20 prompts"))).toBe(true);
    expect(regressionReasons(input({ roundScore: 1.1, regression: slowMinority(4, 0.5) }), settings())).toHaveLength(1);
  });

  it("says nothing when the round score itself is under the floor: the rule's verdict says the whole round is slower", () => {
    const slower = input({ roundScore: 0.5, interval: { low: 0.45, high: 0.55, confidence: 0.95 }, regression: slowMinority(20, 0.5) });
    expect(regressionReasons(slower, settings())).toEqual([]);
    const gate = evaluateGate(slower, settings());
    expect(gate.reasons).toEqual([gate.rule]);
  });

  it("holds a guard's prompts to the floor of its own bar, lowered by a calibration's noise floor", () => {
    // A guard at 1 − 0.05 with a noise floor of 150%: its bar is 0.38×, so the floor a prompt is held to is 0.8 of that.
    const noise = { floor: 1.5, problems: [] };
    const guard = settings({ use: "noise-floor", role: "guard" });
    const floor = effectiveRegressionFloor({ regressionFloor: 0.8, role: "guard", bar: gateBar(guard, noise) });
    expect(floor).toBeCloseTo((0.8 * 0.95) / 2.5, 12);
    // An A/A guard at 0.45× on that runner: no prompt under the floor, and the guard passes.
    const prompts = Array.from({ length: 12 }, (_, index) => ({ id: `p${index}`, status: "scored" as const, score: 0.45 }));
    expect(findRegressedPrompts(prompts, floor)).toEqual([]);
    expect(evaluateGate(input({ roundScore: 0.45, noise, regression: slowMinority(0, 0) }), guard).passed).toBe(true);
    // A target's floor is 0.8 whatever the noise: the same prompts are regressed there.
    expect(findRegressedPrompts(prompts, effectiveRegressionFloor({ regressionFloor: 0.8, bar: gateBar(settings(), noise) }))).toHaveLength(
      12,
    );
  });
});
