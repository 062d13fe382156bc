import { describe, expect, it } from "vitest";
import { timeToTokens } from "../../src/scoring/request-record.js";
import { scorePrompt } from "../../src/scoring/score-prompt.js";
import { explicitStream, failedRequest, steadyStream } from "../support/make-records.js";

describe("timeToTokens", () => {
  it("is the arrival of the chunk that first reaches k tokens, with chunks carrying several tokens", () => {
    const record = explicitStream([
      { tMs: 10, tokens: 3 },
      { tMs: 20, tokens: 7 },
      { tMs: 30, tokens: 8 },
    ]);
    expect(timeToTokens(record, 1)).toBe(10);
    expect(timeToTokens(record, 3)).toBe(10);
    expect(timeToTokens(record, 4)).toBe(20);
    expect(timeToTokens(record, 7)).toBe(20);
    expect(timeToTokens(record, 8)).toBe(30);
  });

  it("falls back to the end of the stream for zero tokens", () => {
    expect(timeToTokens(explicitStream([], 42), 0)).toBe(42);
  });
});

describe("scorePrompt", () => {
  it("excludes a prompt the baseline failed on: there is no reference", () => {
    const result = scorePrompt(failedRequest("HTTP 500"), steadyStream({ tokens: 10, ttftMs: 5, itlMs: 1 }), 0.9);
    expect(result).toMatchObject({ status: "excluded", score: null, speedup: null });
    expect(result.reason).toContain("HTTP 500");
  });

  it("zeroes a prompt the candidate failed on and says why", () => {
    const result = scorePrompt(steadyStream({ tokens: 10, ttftMs: 5, itlMs: 1 }), failedRequest("stream ended without [DONE]", "stream_error"), 0.9);
    expect(result).toEqual({ status: "zeroed", score: 0, speedup: null, comparedTokens: null, reason: "stream ended without [DONE]" });
  });

  it("scores nothing for a candidate that answers less than the tolerance", () => {
    const baseline = steadyStream({ tokens: 512, ttftMs: 50, itlMs: 10 });
    const candidate = steadyStream({ tokens: 120, ttftMs: 10, itlMs: 2 });
    expect(scorePrompt(baseline, candidate, 0.9)).toEqual({
      status: "below_tolerance",
      score: 0,
      speedup: null,
      comparedTokens: null,
      reason: "answered 120 of 512 tokens (tolerance 90%)",
    });
  });

  it("scores a candidate exactly at the tolerance bar", () => {
    const baseline = steadyStream({ tokens: 100, ttftMs: 10, itlMs: 10 });
    const candidate = steadyStream({ tokens: 90, ttftMs: 10, itlMs: 5 });
    const result = scorePrompt(baseline, candidate, 0.9);
    expect(result.status).toBe("scored");
    expect(result.comparedTokens).toBe(90);
    // T_b(90) = 10 + 89*10 = 900, T_c(90) = 10 + 89*5 = 455
    expect(result.speedup).toBeCloseTo(900 / 455, 10);
  });

  it("compares at the shorter length when the candidate answers more than the baseline", () => {
    const baseline = steadyStream({ tokens: 50, ttftMs: 20, itlMs: 4 });
    const candidate = steadyStream({ tokens: 80, ttftMs: 20, itlMs: 2 });
    const result = scorePrompt(baseline, candidate, 0.9);
    expect(result.comparedTokens).toBe(50);
    expect(result.speedup).toBeCloseTo((20 + 49 * 4) / (20 + 49 * 2), 10);
    expect(result.score).toBe(result.speedup);
  });

  it("gives exactly 1 for identical timelines (a tie)", () => {
    const record = steadyStream({ tokens: 64, ttftMs: 30, itlMs: 7 });
    expect(scorePrompt(record, structuredClone(record), 0.9)).toMatchObject({ status: "scored", score: 1, speedup: 1, comparedTokens: 64 });
  });

  it("times multi-token chunks at the chunk that crosses k", () => {
    const baseline = steadyStream({ tokens: 12, ttftMs: 10, itlMs: 10, tokensPerChunk: 4 }); // 4@10 8@20 12@30
    const candidate = steadyStream({ tokens: 10, ttftMs: 5, itlMs: 5, tokensPerChunk: 3 }); // 3@5 6@10 9@15 10@20
    const result = scorePrompt(baseline, candidate, 0.8);
    expect(result.comparedTokens).toBe(10);
    expect(result.speedup).toBeCloseTo(30 / 20, 10);
  });
});
