import { describe, expect, it } from "vitest";
import { detectChangePoints } from "../../src/scoring/detect-change-point.js";
import { createSeededRandom } from "../../src/scoring/seeded-random.js";

const OPTIONS = { maxPValue: 0.01, minSegment: 3, permutations: 199 };

/** Normal draws (Box-Muller) from a seeded generator. */
function normals(count: number, sd: number, seed: number): number[] {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, () => sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
}

describe("detectChangePoints (E-divisive means with a permutation test)", () => {
  it("finds a 3% step in a noisy series of 1% noise where it is", () => {
    const noise = normals(24, 0.01, 7);
    const series = noise.map((value, index) => value + (index >= 14 ? Math.log(0.97) : 0));
    const found = detectChangePoints(series, OPTIONS);
    expect(found).toHaveLength(1);
    expect(found[0]?.index).toBe(14);
    expect(found[0]?.pValue).toBeLessThanOrEqual(0.01);
    expect(Math.exp((found[0]?.meanAfter ?? 0) - (found[0]?.meanBefore ?? 0))).toBeCloseTo(0.97, 1);
  });

  it("finds two steps, each at its place", () => {
    const noise = normals(36, 0.005, 11);
    const series = noise.map((value, index) => value + (index >= 12 ? -0.05 : 0) + (index >= 24 ? -0.05 : 0));
    expect(detectChangePoints(series, OPTIONS).map((point) => point.index)).toEqual([12, 24]);
  });

  it("raises nothing on an unchanged series in at least 95 of 100 seeds", () => {
    let alarms = 0;
    for (let seed = 1; seed <= 100; seed++) if (detectChangePoints(normals(20, 0.01, seed), OPTIONS).length > 0) alarms++;
    expect(alarms).toBeLessThanOrEqual(5);
  });

  it("needs minSegment points on both sides: a change at the last point is not one yet", () => {
    const series = [0, 0.001, -0.001, 0.0005, -0.0005, 0.0002, -0.2];
    expect(detectChangePoints(series, OPTIONS)).toEqual([]);
    expect(detectChangePoints([0, 0.001], OPTIONS)).toEqual([]);
  });

  it("gives the same answer for the same series (seeded shuffles)", () => {
    const series = normals(18, 0.01, 3).map((value, index) => value + (index >= 9 ? -0.03 : 0));
    expect(detectChangePoints(series, OPTIONS)).toEqual(detectChangePoints(series, OPTIONS));
  });

  it("refuses a series with a value that is not a number", () => {
    expect(() => detectChangePoints([0, Number.NaN, 1], OPTIONS)).toThrow(/finite/);
  });
});
