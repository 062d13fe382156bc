import { describe, expect, it } from "vitest";
import { evaluateGate } from "../../src/scoring/evaluate-gate.js";

const interval = { low: 0.97, high: 1.2, confidence: 0.95 };

describe("evaluateGate", () => {
  it("passes on the round score at the bar in round-score mode", () => {
    expect(evaluateGate({ roundScore: 1, interval, baselineFailure: null, noScoreReason: null }, { minRoundScore: 1, use: "round-score" })).toMatchObject({
      passed: true,
      reason: "round score 1.00× ≥ 1.00×",
    });
  });

  it("fails below the bar", () => {
    expect(evaluateGate({ roundScore: 1.05, interval, baselineFailure: null, noScoreReason: null }, { minRoundScore: 1.1, use: "round-score" }).passed).toBe(false);
  });

  it("uses the interval's low end in interval-low mode", () => {
    const result = evaluateGate({ roundScore: 1.1, interval, baselineFailure: null, noScoreReason: null }, { minRoundScore: 1, use: "interval-low" });
    expect(result).toMatchObject({ passed: false, reason: "interval low 0.97× < 1.00×" });
    expect(evaluateGate({ roundScore: 1.1, interval: { ...interval, low: 1.01 }, baselineFailure: null, noScoreReason: null }, { minRoundScore: 1, use: "interval-low" }).passed).toBe(true);
  });

  it("never passes on an infrastructure failure, even above the bar, and says it was not the patch", () => {
    const result = evaluateGate(
      { roundScore: 3, interval, baselineFailure: null, infrastructureFailure: "the Docker daemon went away", noScoreReason: null },
      { minRoundScore: 0.5, use: "round-score" },
    );
    expect(result).toMatchObject({ passed: false, reason: "the infrastructure failed, not the patch: the Docker daemon went away" });
  });

  it("never passes without a score or with a failed baseline", () => {
    expect(evaluateGate({ roundScore: null, interval: null, baselineFailure: null, noScoreReason: "candidate died" }, { minRoundScore: 0.5, use: "round-score" })).toMatchObject({
      passed: false,
      reason: "no round score: candidate died",
    });
    expect(evaluateGate({ roundScore: 3, interval, baselineFailure: "baseline engine exited", noScoreReason: null }, { minRoundScore: 0.5, use: "round-score" }).passed).toBe(false);
  });
});
