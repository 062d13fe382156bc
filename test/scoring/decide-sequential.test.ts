import { describe, expect, it } from "vitest";
import { calibratedSpread, decideSequential } from "../../src/scoring/decide-sequential.js";
import type { TimedRun } from "../../src/scoring/measure-run-spread.js";
import { median } from "../../src/scoring/median.js";
import { DEFAULT_RUN_BUDGET, FIRST_LOOK_ALPHA, TARGET_SPEEDUP } from "../../src/scoring/sequential-design.js";
import { studentTQuantile } from "../../src/scoring/student-t-quantile.js";
import { concatPatterns } from "../support/concat-patterns.js";

/**
 * A round's runs as the card keeps them: each prompt timed at the same length in every run, every
 * time scaled by its engine start's level (log scale) and a little of its own, the candidate `speedup`
 * times faster. Deterministic: the levels are given, the per-request noise is a fixed pattern.
 */
function round(options: { speedup: number; baseline: number[]; candidate: number[]; prompts?: number; sameLength?: boolean }) {
  const prompts = options.prompts ?? 20;
  const runs = options.baseline.length;
  const wobble = (prompt: number, run: number, side: number): number => 0.004 * Math.sin(prompt * 7.1 + run * 3.3 + side);
  const timed = Array.from({ length: prompts }, (_, prompt) => ({
    runs: Array.from({ length: runs }, (_, run): TimedRun & { score: number } => {
      const base = 500 + 40 * prompt;
      const baselineMs = base * Math.exp((options.baseline[run] as number) + wobble(prompt, run, 0));
      const candidateMs = (base / options.speedup) * Math.exp((options.candidate[run] as number) + wobble(prompt, run, 1));
      const comparedTokens = options.sameLength === false && run % 2 === 1 ? 100 + prompt : 100;
      return { status: "scored", baselineMs, candidateMs, comparedTokens, baselineRun: run + 1, score: baselineMs / candidateMs };
    }),
  }));
  const runScores = Array.from({ length: runs }, (_, run) => median(timed.map((prompt) => prompt.runs[run]?.score ?? 0)));
  return { prompts: timed, runScores };
}

const quiet = (runs: number): number[] => Array.from({ length: runs }, (_, run) => (run % 2 === 0 ? 0.01 : -0.01));

describe("decideSequential", () => {
  it("passes a clear speedup at the first look, after two runs of each engine", () => {
    const result = decideSequential({
      ...round({ speedup: 1.5, baseline: [0.03, -0.03], candidate: [-0.02, 0.04] }),
      budget: DEFAULT_RUN_BUDGET,
      order: "counterbalanced",
      bar: 1,
    });
    expect(result.decision).toBe("pass");
    expect(result.decidedAfter).toBe(2);
    expect(result.spread).toBe("starts");
    expect(result.looks).toHaveLength(1);
    expect(result.looks[0]?.low).toBeGreaterThanOrEqual(1);
    expect(result.statement).toMatch(/^sequential test passed after 2 runs of each engine: lower bound 1\.\d+× ≥ 1\.00×$/);
  });

  it("rules out the target speedup for an unchanged engine on a quiet runner, and says so", () => {
    const result = decideSequential({
      ...round({ speedup: 1, baseline: quiet(4), candidate: quiet(4).reverse() }),
      budget: DEFAULT_RUN_BUDGET,
      order: "counterbalanced",
      bar: 1,
    });
    expect(result.decision).toBe("fail");
    expect(result.decidedAfter).toBe(4);
    expect(result.looks.map((look) => look.outcome)).toEqual(["continue", "fail"]);
    expect(result.looks[1]?.upper).toBeLessThan(TARGET_SPEEDUP);
    expect(result.statement).toMatch(/a speedup of 1\.10× is ruled out after 4 runs of each engine \(upper bound 1\.\d+× < 1\.10×\)/);
  });

  it("at the budget, undecided, says the smallest speedup this runner can show in that many runs", () => {
    const noisy = [0.08, -0.05, 0.02, -0.09];
    const result = decideSequential({
      ...round({ speedup: 1.05, baseline: noisy, candidate: [...noisy].reverse() }),
      budget: { min: 2, max: 4 },
      order: "counterbalanced",
      bar: 1,
    });
    expect(result.decision).toBe("undecided");
    expect(result.detectable).toBeGreaterThan(1.05);
    expect(result.statement).toMatch(
      concatPatterns(
        /^4 runs, the budget, still undecided: lower bound 0\.\d+× < 1\.00×; /,
        /the smallest speedup this runner can show /,
        /in 4 runs is 1\.\d\d×$/,
      ),
    );
  });

  it("before the budget's last run, undecided, says how far it got", () => {
    const noisy = [0.08, -0.05, 0.02, -0.09];
    const result = decideSequential({
      ...round({ speedup: 1.05, baseline: noisy, candidate: [...noisy].reverse() }),
      budget: DEFAULT_RUN_BUDGET,
      order: "counterbalanced",
      bar: 1,
    });
    expect(result.decision).toBe("undecided");
    expect(result.statement).toMatch(/^undecided after 4 runs of at most 24: lower bound/);
  });

  it("keeps a pass once the statistic crossed, as the spent error covers a crossing at any look", () => {
    // Crossed at two runs; the next pair is slower, so the fourth look alone would not pass.
    const result = decideSequential({
      ...round({ speedup: 1.5, baseline: [0.01, -0.01, -0.2, -0.2], candidate: [-0.01, 0.01, 0.2, 0.2] }),
      budget: DEFAULT_RUN_BUDGET,
      order: "counterbalanced",
      bar: 1,
    });
    expect(result.looks[1]?.statistic).toBeLessThan(result.looks[1]?.bound as number);
    expect(result.decision).toBe("pass");
    expect(result.decidedAfter).toBe(2);
    expect(result.looks.map((look) => look.outcome)).toEqual(["pass", "pass"]);
  });

  it("reads the spread from the run scores alone when the prompts are not timed alike in every run", () => {
    const result = decideSequential({
      ...round({ speedup: 1.5, baseline: [0.03, -0.03, 0.01, -0.01], candidate: [-0.02, 0.04, 0, 0], sameLength: false }),
      budget: DEFAULT_RUN_BUDGET,
      order: "counterbalanced",
      bar: 1,
    });
    expect(result.spread).toBe("pairs");
    // One degree of freedom after two runs: the first look's bound moves out to Student's t of the tail it spends
    // (9.06 with one degree, against 3.58 with the two of four starts).
    expect(result.looks[0]?.bound).toBeCloseTo(studentTQuantile(1 - FIRST_LOOK_ALPHA, 1), 6);
  });

  it("with a calibration, divides by the A/A rounds' spread instead of the round's own", () => {
    const input = round({ speedup: 1.03, baseline: [0.002, -0.002], candidate: [-0.001, 0.001] });
    const calibrated = calibratedSpread([1.001, 0.999, 1.002, 0.998, 1.0, 1.001, 0.999, 1.0, 1.001, 0.999], 2);
    const withCalibration = decideSequential({ ...input, budget: DEFAULT_RUN_BUDGET, order: "counterbalanced", bar: 1, calibrated });
    expect(withCalibration.spread).toBe("calibrated");
    expect(withCalibration.decision).toBe("pass");
    expect(withCalibration.runSpread).toBeCloseTo(calibrated.sdLogRun, 12);
    // A calibration that saw a noisy runner holds the same round back.
    const noisy = calibratedSpread([1.1, 0.9, 1.05, 0.95, 1.0, 1.08, 0.92, 1.0, 1.1, 0.9], 2);
    const held = decideSequential({ ...input, budget: DEFAULT_RUN_BUDGET, order: "counterbalanced", bar: 1, calibrated: noisy });
    expect(held.decision).toBe("undecided");
  });
});
