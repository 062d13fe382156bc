import { describe, expect, it } from "vitest";
import { computeNoiseFloor } from "../../src/scoring/noise-floor.js";
import { studentTCdf, studentTQuantile } from "../../src/scoring/student-t-quantile.js";

describe("studentTQuantile", () => {
  it("matches published tables", () => {
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(studentTQuantile(0.975, 4)).toBeCloseTo(2.7764, 4);
    expect(studentTQuantile(0.975, 19)).toBeCloseTo(2.093, 3);
    expect(studentTQuantile(0.95, 9)).toBeCloseTo(1.8331, 4);
    expect(studentTQuantile(0.975, 100_000)).toBeCloseTo(1.96, 2);
  });

  it("inverts the distribution function, which is symmetric", () => {
    expect(studentTCdf(studentTQuantile(0.9, 7), 7)).toBeCloseTo(0.9, 10);
    expect(studentTCdf(-1.5, 5) + studentTCdf(1.5, 5)).toBeCloseTo(1, 12);
  });
});

describe("computeNoiseFloor", () => {
  it("is the upper 97.5% prediction bound of one more A/A round on the log scale", () => {
    const scores = [0.98, 1.01, 1.0, 0.99, 1.02, 1.0, 0.97, 1.03, 1.01, 0.99];
    const logs = scores.map(Math.log);
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
    const noise = computeNoiseFloor(scores);
    expect(noise.rounds).toBe(10);
    expect(noise.sdLog).toBeCloseTo(sd, 12);
    expect(noise.floor).toBeCloseTo(Math.exp(mean + 2.2622 * sd * Math.sqrt(1.1)) - 1, 4);
    expect(noise.detectableSpeedup).toBeGreaterThan(noise.floor);
  });

  it("never lowers the bar, even when the candidate's slot measured slower", () => {
    expect(computeNoiseFloor([0.9, 0.91, 0.9, 0.89, 0.9]).floor).toBe(0);
  });

  it("refuses too few rounds and scores no real round can have", () => {
    expect(() => computeNoiseFloor([1, 1, 1, 1])).toThrow(/at least 5/);
    expect(() => computeNoiseFloor([1, 1, 1, 1, 0])).toThrow(/positive/);
  });
});
