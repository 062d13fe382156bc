import { describe, expect, it } from "vitest";
import { poolRoundEstimates } from "../../src/scoring/pool-round-estimates.js";

describe("poolRoundEstimates", () => {
  it("keeps one round as it is", () => {
    expect(poolRoundEstimates([{ score: 0.95, interval: { low: 0.93, high: 0.97 } }])).toEqual({
      score: 0.95,
      interval: { low: 0.93, high: 0.97 },
      rounds: 1,
    });
  });

  it("pools two equally precise rounds at their geometric mean, with an interval narrower by about √2", () => {
    const a = { score: 0.96, interval: { low: 0.96 / 1.02, high: 0.96 * 1.02 } };
    const b = { score: 0.98, interval: { low: 0.98 / 1.02, high: 0.98 * 1.02 } };
    const pooled = poolRoundEstimates([a, b]);
    expect(pooled?.rounds).toBe(2);
    expect(pooled?.score).toBeCloseTo(Math.sqrt(0.96 * 0.98), 10);
    const width = Math.log(pooled?.interval?.high ?? 0) - Math.log(pooled?.interval?.low ?? 0);
    expect(width).toBeCloseTo((2 * Math.log(1.02)) / Math.SQRT2, 6);
  });

  it("weighs a precise round more than a noisy one", () => {
    const precise = { score: 0.9, interval: { low: 0.89, high: 0.91 } };
    const noisy = { score: 1.0, interval: { low: 0.8, high: 1.25 } };
    const pooled = poolRoundEstimates([precise, noisy]);
    expect(pooled?.score).toBeGreaterThan(0.9);
    expect(pooled?.score).toBeLessThan(0.905);
  });

  it("skips rounds that scored nothing, and gives null when none did", () => {
    expect(poolRoundEstimates([])).toBeNull();
    expect(poolRoundEstimates([{ score: 0, interval: null }])).toBeNull();
    expect(
      poolRoundEstimates([
        { score: 0, interval: null },
        { score: 0.9, interval: { low: 0.88, high: 0.92 } },
      ])?.score,
    ).toBe(0.9);
  });

  it("without intervals gives the geometric mean and no interval", () => {
    const pooled = poolRoundEstimates([
      { score: 0.8, interval: null },
      { score: 0.9, interval: null },
    ]);
    expect(pooled?.score).toBeCloseTo(Math.sqrt(0.72), 10);
    expect(pooled?.interval).toBeNull();
  });

  it("does not let a zero-width interval take all the weight", () => {
    const pooled = poolRoundEstimates([
      { score: 0.9, interval: { low: 0.9, high: 0.9 } },
      { score: 1.0, interval: { low: 0.9999, high: 1.0001 } },
    ]);
    expect(pooled?.score).toBeGreaterThan(0.9);
    expect(pooled?.score).toBeLessThan(1);
  });
});
