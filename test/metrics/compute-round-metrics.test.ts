import { describe, expect, it } from "vitest";
import { type PairedRequest, computeRoundMetrics } from "../../src/metrics/compute-round-metrics.js";
import { roundMetricsSchema } from "../../src/metrics/metrics-schema.js";
import { scorePrompt } from "../../src/scoring/score-prompt.js";
import type { RequestRecord } from "../../src/scoring/request-record.js";
import { failedRequest, steadyStream } from "../../harness/make-records.js";

function pair(baseline: RequestRecord, candidate: RequestRecord, tolerance = 0.9): PairedRequest {
  const score = scorePrompt(baseline, candidate, tolerance);
  return { status: score.status, comparedTokens: score.comparedTokens, baseline, candidate };
}

const at = (sentMs: number, record: ReturnType<typeof steadyStream>) => ({ ...record, sentMs });

describe("computeRoundMetrics", () => {
  it("tells a prefill speed-up from a decode speed-up", () => {
    const prefill = computeRoundMetrics([
      [pair(steadyStream({ tokens: 100, ttftMs: 200, itlMs: 10 }), steadyStream({ tokens: 100, ttftMs: 100, itlMs: 10 }))],
    ]);
    expect(prefill?.ratio.ttftMs.median).toBe(0.5);
    expect(prefill?.ratio.tpotMs.median).toBe(1);
    const decode = computeRoundMetrics([
      [pair(steadyStream({ tokens: 100, ttftMs: 200, itlMs: 10 }), steadyStream({ tokens: 100, ttftMs: 200, itlMs: 8 }))],
    ]);
    expect(decode?.ratio.ttftMs.median).toBe(1);
    expect(decode?.ratio.tpotMs.median).toBe(0.8);
    expect(decode?.ratio.itlMs.median).toBe(0.8);
  });

  it("cuts both engines at the compared length: a longer baseline answer's slow tail does not flatter the candidate", () => {
    // The baseline slows down after token 95 (a long context); the candidate stops at 95 tokens, within tolerance.
    const fast = steadyStream({ tokens: 95, ttftMs: 50, itlMs: 10 });
    const baseline: RequestRecord = {
      ...fast,
      chunks: [...fast.chunks, ...Array.from({ length: 5 }, (_, index) => ({ tMs: 990 + (index + 1) * 100, tokens: 96 + index }))],
      outputTokens: 100,
    };
    const candidate = steadyStream({ tokens: 95, ttftMs: 50, itlMs: 10 });
    const metrics = computeRoundMetrics([[pair(baseline, candidate)]]);
    expect(metrics?.baseline.tpotMs.p99).toBe(10);
    expect(metrics?.baseline.itlMs.p99).toBe(10);
    expect(metrics?.ratio.tpotMs.median).toBe(1);
    expect(metrics?.baseline.outputTokens).toBe(95);
  });

  it("counts only scored prompts: below-tolerance, zeroed and excluded prompts have no equal-length timing", () => {
    const base = steadyStream({ tokens: 50, ttftMs: 40, itlMs: 10 });
    const metrics = computeRoundMetrics([
      [
        pair(base, steadyStream({ tokens: 50, ttftMs: 20, itlMs: 5 })),
        pair(base, steadyStream({ tokens: 5, ttftMs: 1, itlMs: 1 })),
        pair(base, failedRequest("HTTP 500")),
        pair(failedRequest("HTTP 500"), base),
      ],
    ]);
    expect(metrics?.prompts).toBe(1);
    expect(metrics?.candidate.ttftMs.median).toBe(20);
    expect(computeRoundMetrics([[pair(base, failedRequest("HTTP 500"))]])).toBeNull();
  });

  it("measures throughput over the span from the first request sent to the last token at k, and adds the spans of several runs", () => {
    const run = [
      pair(at(0, steadyStream({ tokens: 11, ttftMs: 100, itlMs: 10 })), at(0, steadyStream({ tokens: 11, ttftMs: 50, itlMs: 5 }))),
      pair(at(1_000, steadyStream({ tokens: 11, ttftMs: 100, itlMs: 10 })), at(1_000, steadyStream({ tokens: 11, ttftMs: 50, itlMs: 5 }))),
    ];
    const one = computeRoundMetrics([run]);
    // Baseline: last token at 1,000 + 100 + 10 × 10 = 1,200 ms; candidate at 1,000 + 50 + 50 = 1,100 ms.
    expect(one?.baseline.durationMs).toBe(1_200);
    expect(one?.candidate.durationMs).toBe(1_100);
    expect(one?.baseline.outputTokensPerS).toBeCloseTo(22 / 1.2, 3);
    expect(one?.baseline.requestsPerS).toBeCloseTo(2 / 1.2, 3);
    expect(one?.ratio.outputTokensPerS).toBeCloseTo(1_200 / 1_100, 3);
    const two = computeRoundMetrics([run, run]);
    expect(two?.baseline.durationMs).toBe(2_400);
    expect(two?.baseline.requests).toBe(4);
    expect(two?.baseline.outputTokensPerS).toBeCloseTo(one?.baseline.outputTokensPerS ?? 0, 3);
  });

  it("fits the card's schema", () => {
    const metrics = computeRoundMetrics([
      [pair(steadyStream({ tokens: 30, ttftMs: 40, itlMs: 10 }), steadyStream({ tokens: 30, ttftMs: 30, itlMs: 9 }))],
    ]);
    expect(roundMetricsSchema.parse(metrics)).toEqual(metrics);
  });
});
