import { describe, expect, it } from "vitest";
import { median } from "../../src/scoring/median.js";

describe("median", () => {
  it("is null for no values", () => expect(median([])).toBeNull());
  it("takes the middle of an odd count, whatever the order", () => expect(median([3, 1, 2])).toBe(2));
  it("takes the mean of the middle two of an even count", () => expect(median([4, 1, 3, 2])).toBe(2.5));
  it("counts zeros like any other value", () => expect(median([0, 0, 1.5])).toBe(0));
  it("does not reorder its input", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});
