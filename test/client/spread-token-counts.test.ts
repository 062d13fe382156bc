import { describe, expect, it } from "vitest";
import { spreadTokenCounts } from "../../src/client/spread-token-counts.js";

function spread(counts: number[], total: number): number[] {
  const copy = [...counts];
  spreadTokenCounts(copy, total);
  return copy;
}

describe("spreadTokenCounts", () => {
  it("scales one-a-delta counts up to the reported total, whole and non-decreasing", () => {
    expect(spread([1, 2, 3, 4], 10)).toEqual([3, 5, 8, 10]);
    expect(spread([1, 2, 3], 3)).toEqual([1, 2, 3]);
  });

  it("scales down when the server counted fewer tokens than deltas", () => {
    const counts = spread([1, 2, 3, 4, 5, 6, 7], 3);
    expect(counts.at(-1)).toBe(3);
    expect(counts.every((value, index) => index === 0 || value >= (counts[index - 1] ?? 0))).toBe(true);
  });

  it("handles a zero total and no chunks", () => {
    expect(spread([1, 2], 0)).toEqual([0, 0]);
    expect(spread([], 5)).toEqual([]);
  });
});
