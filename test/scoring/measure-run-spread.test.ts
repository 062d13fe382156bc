import { describe, expect, it } from "vitest";
import { MIN_LEVEL_PROMPTS, type TimedRun, measureRunSpread } from "../../src/scoring/measure-run-spread.js";

/** Prompts timed at one length in every run, each engine start's times scaled by its level. */
function timed(baseline: number[], candidate: number[], prompts = 8): Array<{ runs: TimedRun[] }> {
  return Array.from({ length: prompts }, (_, prompt) => ({
    runs: baseline.map((level, run) => ({
      status: "scored" as const,
      comparedTokens: 64,
      baselineMs: (300 + prompt * 50) * Math.exp(level),
      candidateMs: (300 + prompt * 50) * Math.exp(candidate[run] as number),
      baselineRun: run + 1,
    })),
  }));
}

describe("measureRunSpread", () => {
  it("reads each engine's start levels from the prompts and pools them: 2(R − 1) degrees of freedom", () => {
    const baseline = [0.02, -0.02, 0.04, -0.04];
    const candidate = [0.01, -0.01, 0.0, 0.0];
    const scores = baseline.map((b, run) => Math.exp(b - (candidate[run] as number)));
    const spread = measureRunSpread(timed(baseline, candidate), scores, 4);
    const pooled = (0.02 ** 2 * 2 + 0.04 ** 2 * 2 + 0.01 ** 2 * 2) / 6;
    expect(spread?.source).toBe("starts");
    expect(spread?.degrees).toBe(6);
    expect(spread?.promptsUsed).toBe(8);
    expect(spread?.startSd).toBeCloseTo(Math.sqrt(pooled), 12);
    expect(spread?.standardError).toBeCloseTo(Math.sqrt((2 * pooled) / 4), 12);
    expect(spread?.meanLog).toBeCloseTo(scores.reduce((sum, score) => sum + Math.log(score), 0) / 4, 12);
  });

  it("reads only the first runs it is asked for", () => {
    const spread = measureRunSpread(timed([0.01, -0.01, 0.5, -0.5], [0, 0, 0, 0]), [1.01, 0.99, 1.6, 0.6], 2);
    expect(spread?.runs).toBe(2);
    expect(spread?.startSd).toBeCloseTo(Math.sqrt((2 * 0.01 ** 2) / 2), 12);
  });

  it("leaves out prompts timed at another length, against another run's baseline or not scored in some run", () => {
    const prompts = timed([0.02, -0.02], [0, 0], MIN_LEVEL_PROMPTS + 3);
    (prompts[0]?.runs[1] as TimedRun).comparedTokens = 50;
    (prompts[1]?.runs[1] as TimedRun).baselineRun = 1;
    (prompts[2]?.runs[0] as TimedRun).status = "below_tolerance";
    expect(measureRunSpread(prompts, [1.02, 0.98], 2)?.promptsUsed).toBe(MIN_LEVEL_PROMPTS);
  });

  it("falls back to the run scores alone, with R − 1 degrees of freedom, when too few prompts are timed alike", () => {
    const prompts = timed([0.02, -0.02, 0], [0, 0, 0], MIN_LEVEL_PROMPTS - 1);
    const logs = [0.05, -0.01, 0.02];
    const spread = measureRunSpread(prompts, logs.map(Math.exp), 3);
    const mean = 0.02;
    const variance = logs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / 2;
    expect(spread?.source).toBe("pairs");
    expect(spread?.degrees).toBe(2);
    expect(spread?.standardError).toBeCloseTo(Math.sqrt(variance / 3), 12);
  });

  it("has nothing to say before two runs", () => {
    expect(measureRunSpread(timed([0], [0]), [1], 1)).toBeNull();
  });
});
