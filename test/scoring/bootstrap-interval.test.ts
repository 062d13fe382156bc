import { describe, expect, it } from "vitest";
import { bootstrapMedianInterval } from "../../src/scoring/bootstrap-interval.js";
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
    const bySeed = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => JSON.stringify(bootstrapMedianInterval(scores, { seed, resamples: 200 }))));
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
