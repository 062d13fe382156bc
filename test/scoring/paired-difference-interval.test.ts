import { describe, expect, it } from "vitest";
import { pairedDifferenceInterval, wilsonInterval } from "../../src/scoring/paired-difference-interval.js";

describe("wilsonInterval", () => {
  it("gives Wilson's score interval (Agresti and Coull's worked figure: 0 of 10, and 9 of 10)", () => {
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(9, 10).low).toBeCloseTo(0.5958, 4);
    expect(wilsonInterval(9, 10).high).toBeCloseTo(0.9821, 4);
  });
});

describe("pairedDifferenceInterval (Newcombe's square-and-add for paired proportions)", () => {
  it("gives Fagerland, Lydersen and Laake's interval for Cavo et al. (59, 6, 16, 80): the candidate's gain 0.0621 [0.0046, 0.1186]", () => {
    // Their table puts the baseline in rows: 59 both, 6 baseline only, 16 candidate only, 80 neither; they report baseline − candidate.
    const result = pairedDifferenceInterval({ bothRight: 59, baselineOnly: 6, candidateOnly: 16, neither: 80 });
    expect(result.difference).toBeCloseTo(0.0621, 4);
    expect(result.low).toBeCloseTo(0.0046, 4);
    expect(result.high).toBeCloseTo(0.1186, 4);
  });

  it("is the mirror image when the engines swap seats", () => {
    const forward = pairedDifferenceInterval({ bothRight: 150, baselineOnly: 12, candidateOnly: 3, neither: 35 });
    const back = pairedDifferenceInterval({ bothRight: 150, baselineOnly: 3, candidateOnly: 12, neither: 35 });
    expect(back.difference).toBeCloseTo(-forward.difference, 12);
    expect(back.low).toBeCloseTo(-forward.high, 12);
    expect(back.high).toBeCloseTo(-forward.low, 12);
  });

  it("is not zero-wide when no question changed, and holds 0", () => {
    const result = pairedDifferenceInterval({ bothRight: 180, baselineOnly: 0, candidateOnly: 0, neither: 20 });
    expect(result.difference).toBe(0);
    expect(result.low).toBeLessThan(0);
    expect(result.high).toBeGreaterThan(0);
  });

  it("stays inside [−1, 1] at the extremes", () => {
    const result = pairedDifferenceInterval({ bothRight: 0, baselineOnly: 5, candidateOnly: 0, neither: 0 });
    expect(result.difference).toBe(-1);
    expect(result.low).toBeGreaterThanOrEqual(-1);
    expect(result.high).toBeLessThan(0);
  });

  it("covers the true difference in about 95% of simulated rounds at 200 questions near 90% accuracy", () => {
    // A seeded linear congruential source: the same rounds on every machine.
    let state = 12345;
    const random = (): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296;
    };
    // Cells' probabilities: both right 0.86, baseline only 0.04, candidate only 0.02, neither 0.08; true gain −0.02.
    const cells = [0.86, 0.04, 0.02, 0.08];
    let covered = 0;
    const rounds = 4000;
    for (let round = 0; round < rounds; round++) {
      const counts = [0, 0, 0, 0];
      for (let q = 0; q < 200; q++) {
        let u = random();
        let cell = 0;
        while (cell < 3 && u >= (cells[cell] ?? 0)) u -= cells[cell++] ?? 0;
        counts[cell] = (counts[cell] ?? 0) + 1;
      }
      const [bothRight = 0, baselineOnly = 0, candidateOnly = 0, neither = 0] = counts;
      const { low, high } = pairedDifferenceInterval({ bothRight, baselineOnly, candidateOnly, neither });
      if (low <= -0.02 && -0.02 <= high) covered++;
    }
    expect(covered / rounds).toBeGreaterThan(0.93);
    expect(covered / rounds).toBeLessThan(0.975);
  });
});
