import { describe, expect, it } from "vitest";
import { binomialTail, binomialUpperBound } from "../../src/scoring/binomial-tail.js";

/** P(X ≥ k) summed term by term in plain floating point, for small n. */
function direct(n: number, p: number, k: number): number {
  let total = 0;
  let coefficient = 1;
  for (let j = 0; j <= n; j++) {
    if (j > 0) coefficient = (coefficient * (n - j + 1)) / j;
    if (j >= k) total += coefficient * p ** j * (1 - p) ** (n - j);
  }
  return total;
}

describe("binomialTail", () => {
  it("equals the tail summed directly, on either side of the mode", () => {
    for (const [n, p] of [
      [4, 0.527],
      [30, 0.1],
      [120, 0.025],
      [60, 0.5],
    ] as const) {
      for (let k = 0; k <= n; k += Math.max(1, Math.floor(n / 12))) expect(binomialTail(n, p, k)).toBeCloseTo(direct(n, p, k), 12);
    }
  });

  it("keeps far tails of large counts without losing them to rounding, and the edges exact", () => {
    const tail = binomialTail(100_000, 0.01, 1_300);
    expect(tail).toBeGreaterThan(0);
    expect(tail).toBeLessThan(1e-15);
    expect(binomialTail(10, 0.3, 0)).toBe(1);
    expect(binomialTail(10, 0.3, 11)).toBe(0);
    expect(binomialTail(10, 0, 1)).toBe(0);
    expect(binomialTail(10, 1, 10)).toBe(1);
  });
});

describe("binomialUpperBound (Clopper–Pearson, one-sided)", () => {
  it("is 1 − alpha^(1/n) with nothing seen, and the rate at which seeing k or fewer has probability alpha", () => {
    expect(binomialUpperBound(0, 120, 0.05)).toBeCloseTo(1 - 0.05 ** (1 / 120), 9);
    const bound = binomialUpperBound(3, 120, 0.05);
    expect(1 - binomialTail(120, bound, 4)).toBeCloseTo(0.05, 9);
    expect(bound).toBeGreaterThan(3 / 120);
    expect(binomialUpperBound(0, 0, 0.05)).toBe(1);
    expect(binomialUpperBound(5, 5, 0.05)).toBe(1);
  });
});
