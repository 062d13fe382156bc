import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../../src/scoring/seeded-random.js";
import { sequentialBoundaries } from "../../src/scoring/sequential-boundaries.js";
import { DEFAULT_RUN_BUDGET, FIRST_LOOK_ALPHA, SEQUENTIAL_ALPHA } from "../../src/scoring/sequential-design.js";
import { studentTQuantile } from "../../src/scoring/student-t-quantile.js";

/** A normal source on a seed of its own, so the check does not reuse the paths the bounds were placed with. */
function normals(seed: number): () => number {
  const random = createSeededRandom(seed);
  return () => Math.sqrt(-2 * Math.log(Math.max(random(), Number.MIN_VALUE))) * Math.cos(2 * Math.PI * random());
}

/**
 * Rounds with no speedup at all, engine starts drawn at a given spread: how often the statistic
 * reaches some look's bound. The spread divides out, which is the point: any spread gives the same rate.
 */
function nullCrossingRate(spread: number, rounds: number, seed: number): number {
  const { looks, efficacy } = sequentialBoundaries(DEFAULT_RUN_BUDGET, "counterbalanced", { kind: "starts" });
  const normal = normals(seed);
  let crossed = 0;
  for (let round = 0; round < rounds; round++) {
    const b: number[] = [];
    const c: number[] = [];
    for (const [index, runs] of looks.entries()) {
      while (b.length < runs) {
        b.push(spread * normal());
        c.push(spread * normal());
      }
      const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
      const squares = (values: number[]): number => values.reduce((sum, value) => sum + (value - mean(values)) ** 2, 0);
      const standardError = Math.sqrt((squares(b) + squares(c)) / (runs - 1) / runs);
      if ((mean(b) - mean(c)) / standardError >= (efficacy[index] as number)) {
        crossed++;
        break;
      }
    }
  }
  return crossed / rounds;
}

describe("sequentialBoundaries", () => {
  it("puts the first look's bound at Student's t quantile of the error it spends, with two starts' degrees of freedom", () => {
    const bounds = sequentialBoundaries(DEFAULT_RUN_BUDGET, "counterbalanced", { kind: "starts" });
    expect(bounds.looks).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]);
    expect(bounds.degrees).toEqual([2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46]);
    expect(bounds.efficacy[0]).toBeCloseTo(studentTQuantile(1 - FIRST_LOOK_ALPHA, 2), 10);
    // Later bounds fall as the spread is known better and the error is spent a little at a time.
    expect(bounds.efficacy.at(-1)).toBeLessThan(bounds.efficacy[2] as number);
  });

  it("lets rounds with no speedup cross some look's bound at the error spent, at any spread of the engine starts", () => {
    // 8,000 rounds: the rate's standard error is 0.22 points around 4%.
    for (const [spread, seed] of [
      [0.05, 7],
      [0.002, 8],
    ] as const) {
      const rate = nullCrossingRate(spread, 8_000, seed);
      expect(rate).toBeGreaterThan(SEQUENTIAL_ALPHA - 0.008);
      expect(rate).toBeLessThan(SEQUENTIAL_ALPHA + 0.008);
    }
  });

  it("with a calibration's spread, holds the first look to Student's t with the calibration's degrees of freedom", () => {
    const bounds = sequentialBoundaries({ min: 2, max: 8 }, "counterbalanced", { kind: "calibrated", degrees: 19 });
    expect(bounds.degrees).toEqual([19, 19, 19, 19]);
    expect(bounds.efficacy[0]).toBeCloseTo(studentTQuantile(1 - FIRST_LOOK_ALPHA, 19), 10);
  });

  it("is the same every time: a merge and the app's re-gate place the bounds the round did", () => {
    const budget = { min: 2, max: 6 };
    const first = sequentialBoundaries(budget, "counterbalanced", { kind: "starts" });
    expect(sequentialBoundaries({ ...budget }, "counterbalanced", { kind: "starts" })).toEqual(first);
  });
});
