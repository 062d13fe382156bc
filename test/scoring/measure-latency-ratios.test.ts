import { describe, expect, it } from "vitest";
import { measureLatencyRatios } from "../../src/scoring/measure-latency-ratios.js";

/** Ten prompts sent 100 ms apart, each taking `baseline` ms on the baseline and `candidate(i)` on the candidate. */
function run(candidate: (index: number) => number, baseline = 500) {
  return Array.from({ length: 10 }, (_, index) => ({
    comparedTokens: 50,
    baselineMs: baseline,
    candidateMs: candidate(index),
    baselineSentMs: index * 100,
    candidateSentMs: index * 100,
  }));
}

describe("measureLatencyRatios", () => {
  it("is 1 for an unchanged engine and the speedup's inverse for a faster one", () => {
    expect(measureLatencyRatios([run(() => 500)])).toEqual({ e2eP90: 1, throughput: 1 });
    const faster = measureLatencyRatios([run(() => 250)]);
    expect(faster.e2eP90).toBeCloseTo(0.5, 10);
    // The span is the last send (900 ms) plus the last answer: 1,400 ms against 1,150 ms.
    expect(faster.throughput).toBeCloseTo(1400 / 1150, 10);
  });

  it("sees a starved minority the median hides: the slowest requests and the run's end move out", () => {
    // Two of ten prompts served after the others, at four times the time; the rest 20% faster.
    const starved = measureLatencyRatios([run((index) => (index % 5 === 1 ? 2000 : 400))]);
    expect(starved.e2eP90).toBeGreaterThan(3);
    expect(starved.throughput).toBeLessThan(1);
  });

  it("combines runs by their geometric mean, skips untimed prompts, and gives no throughput without send times", () => {
    const ratios = measureLatencyRatios([run(() => 250), run(() => 1000), [{ comparedTokens: null, baselineMs: null, candidateMs: null }]]);
    expect(ratios.e2eP90).toBeCloseTo(1, 10);
    const old = run(() => 250).map(({ baselineSentMs: _b, candidateSentMs: _c, ...rest }) => rest);
    expect(measureLatencyRatios([old])).toEqual({ e2eP90: 0.5, throughput: null });
    expect(measureLatencyRatios([])).toEqual({ e2eP90: null, throughput: null });
  });
});
