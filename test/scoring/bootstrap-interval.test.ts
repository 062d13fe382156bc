import { describe, expect, it } from "vitest";
import {
  type RunPromptScores,
  bootstrapMedianInterval,
  bootstrapRunsAndPrompts,
  combineRuns,
} from "../../src/scoring/bootstrap-interval.js";
import { median } from "../../src/scoring/median.js";
import { createSeededRandom } from "../../src/scoring/seeded-random.js";

describe("bootstrapMedianInterval", () => {
  it("is null without scores and a point for one score", () => {
    expect(bootstrapMedianInterval([])).toBeNull();
    expect(bootstrapMedianInterval([1.3])).toEqual({ low: 1.3, high: 1.3, confidence: 0.95 });
  });

  it("depends on the seed and on the values, not on their order", () => {
    const random = createSeededRandom(7);
    const scores = Array.from({ length: 101 }, () => 0.5 + random());
    const shuffled = [...scores].reverse();
    expect(bootstrapMedianInterval(shuffled)).toEqual(bootstrapMedianInterval(scores));
    const bySeed = new Set(
      [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => JSON.stringify(bootstrapMedianInterval(scores, { seed, resamples: 200 }))),
    );
    expect(bySeed.size).toBeGreaterThan(1);
  });

  it("brackets the median and narrows as prompts are added", () => {
    const random = createSeededRandom(11);
    const few = Array.from({ length: 15 }, () => 0.8 + 0.6 * random());
    const many = Array.from({ length: 1500 }, () => 0.8 + 0.6 * random());
    const narrow = bootstrapMedianInterval(many);
    const wide = bootstrapMedianInterval(few);
    expect(narrow && wide).toBeTruthy();
    expect(narrow!.low).toBeLessThanOrEqual(median(many)!);
    expect(narrow!.high).toBeGreaterThanOrEqual(median(many)!);
    expect(narrow!.high - narrow!.low).toBeLessThan(wide!.high - wide!.low);
  });
});

/** A runs × prompts matrix from rows. */
function matrixOf(rows: number[][]): RunPromptScores {
  const prompts = rows[0]?.length ?? 0;
  return { runs: rows.length, prompts, values: Float64Array.from(rows.flat()) };
}

describe("combineRuns", () => {
  const matrix = matrixOf([
    [1.1, 0, Number.NaN, 2],
    [1.21, 1.5, Number.NaN, Number.NaN],
  ]);

  it("is the geometric mean of the weighted runs, 0 when any weighted run left the prompt unscored, NaN when none counts", () => {
    expect(combineRuns(matrix, 0, [1, 1])).toBeCloseTo(Math.sqrt(1.1 * 1.21), 12);
    expect(combineRuns(matrix, 0, [2, 0])).toBeCloseTo(1.1, 12);
    expect(combineRuns(matrix, 1, [1, 1])).toBe(0);
    expect(combineRuns(matrix, 1, [0, 2])).toBeCloseTo(1.5, 12);
    expect(combineRuns(matrix, 2, [1, 1])).toBeNaN();
    expect(combineRuns(matrix, 3, [1, 1])).toBeCloseTo(2, 12);
  });
});

describe("bootstrapRunsAndPrompts", () => {
  const random = createSeededRandom(5);
  const prompts = Array.from({ length: 40 }, () => 0.9 + 0.3 * random());

  it("is the prompt bootstrap with one run", () => {
    expect(bootstrapRunsAndPrompts(matrixOf([prompts]))).toEqual(bootstrapMedianInterval(prompts));
  });

  it("brackets the median of the combined prompts, for odd and even counts", () => {
    for (const count of [39, 40]) {
      const rows = [prompts.slice(0, count), prompts.slice(0, count).map((value) => value * 1.02)];
      const interval = bootstrapRunsAndPrompts(matrixOf(rows));
      const combined = median(rows[0]!.map((value, index) => Math.sqrt(value * (rows[1]![index] as number))))!;
      expect(interval!.low).toBeLessThanOrEqual(combined);
      expect(interval!.high).toBeGreaterThanOrEqual(combined);
    }
  });

  it("grows with the spread between runs, and not with runs that agree", () => {
    const close = prompts.map((value) => 0.99 + (value - 0.9) / 15);
    const width = (levels: number[]): number => {
      const interval = bootstrapRunsAndPrompts(matrixOf(levels.map((level) => close.map((value) => value * level))));
      return interval!.high - interval!.low;
    };
    const agreeing = width([1, 1, 1, 1]);
    expect(agreeing).toBeLessThan(1.2 * (bootstrapMedianInterval(close)!.high - bootstrapMedianInterval(close)!.low));
    expect(width([0.95, 1, 1.05, 1])).toBeGreaterThan(2 * agreeing);
  });

  it("corrects the spread of few runs: two runs 10% apart give an interval at least as wide as their difference", () => {
    const flat = Array.from({ length: 30 }, () => 1);
    const interval = bootstrapRunsAndPrompts(matrixOf([flat, flat.map(() => 1.1)]));
    // Plain resampling of two runs only ever reaches the two levels; the √(R/(R−1)) correction pushes them apart.
    expect(interval!.low).toBeLessThan(1);
    expect(interval!.high).toBeGreaterThan(1.1);
  });
});
