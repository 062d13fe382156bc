import { describe, expect, it } from "vitest";
import { mcnemarDropP, mcnemarExactP } from "../../src/scoring/mcnemar-exact.js";

/** The exact binomial probability of k of n at ½, for checking the test's size independently. */
function binomialHalf(n: number, k: number): number {
  let choose = 1;
  for (let i = 1; i <= k; i++) choose = (choose * (n - i + 1)) / i;
  return choose / 2 ** n;
}

describe("mcnemarExactP", () => {
  it("gives Fagerland, Lydersen and Laake's value for Cavo et al. (6 and 16 discordant pairs)", () => {
    expect(mcnemarExactP(6, 16)).toBeCloseTo(0.052479, 6);
    expect(mcnemarExactP(16, 6)).toBeCloseTo(0.052479, 6);
  });

  it("is 2 × ½^n when every discordant pair falls one way", () => {
    expect(mcnemarExactP(10, 0)).toBeCloseTo(2 / 1024, 12);
    expect(mcnemarExactP(0, 1)).toBe(1);
  });

  it("is 1 with no discordant pair, and never above 1 with an even split", () => {
    expect(mcnemarExactP(0, 0)).toBe(1);
    expect(mcnemarExactP(7, 7)).toBe(1);
  });

  it("stays finite and tiny for thousands of pairs, where 2^-n underflows", () => {
    const p = mcnemarExactP(1200, 800);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-15);
    expect(mcnemarExactP(1000, 1000)).toBe(1);
  });

  it("never rejects an unchanged engine more often than 5% at p < 0.05, for every count of discordant pairs up to 80", () => {
    for (let n = 1; n <= 80; n++) {
      let size = 0;
      for (let b = 0; b <= n; b++) if (mcnemarExactP(b, n - b) < 0.05) size += binomialHalf(n, b);
      expect(size, `n = ${n}`).toBeLessThanOrEqual(0.05);
    }
  });
});

describe("mcnemarDropP (one-sided, for a drop)", () => {
  it("is the chance an engine no worse loses at least as many: half the two-sided value for a drop, over ½ for a gain", () => {
    expect(mcnemarDropP(16, 6)).toBeCloseTo(0.052479 / 2, 6);
    expect(mcnemarDropP(10, 0)).toBeCloseTo(1 / 1024, 12);
    expect(mcnemarDropP(6, 16)).toBeGreaterThan(0.5);
    expect(mcnemarDropP(0, 0)).toBe(1);
  });

  it("never fails an unchanged engine more often than 5% at p < 0.05, for every count of discordant pairs up to 80", () => {
    for (let n = 1; n <= 80; n++) {
      let size = 0;
      for (let lost = 0; lost <= n; lost++) if (mcnemarDropP(lost, n - lost) < 0.05) size += binomialHalf(n, lost);
      expect(size, `n = ${n}`).toBeLessThanOrEqual(0.05);
    }
  });
});
