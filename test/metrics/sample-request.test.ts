import { describe, expect, it } from "vitest";
import { sampleRequest } from "../../src/metrics/sample-request.js";
import { explicitStream, steadyStream } from "../../harness/make-records.js";

describe("sampleRequest", () => {
  it("takes TTFT at the first chunk that carried a token, not at a role-only first chunk", () => {
    const record = explicitStream([
      { tMs: 5, tokens: 0 },
      { tMs: 100, tokens: 1 },
      { tMs: 120, tokens: 2 },
      { tMs: 150, tokens: 3 },
    ]);
    const sample = sampleRequest(record, 3);
    expect(sample?.ttftMs).toBe(100);
    expect(sample?.itlMs).toEqual([20, 30]);
    // (T(3) − TTFT) / (3 − 1): vLLM's and SGLang's TPOT, over the tokens after the first.
    expect(sample?.tpotMs).toBe(25);
    expect(sample?.e2eMs).toBe(150);
  });

  it("stops at the chunk that reached k tokens, so a longer answer's tail does not count", () => {
    const record = steadyStream({ tokens: 100, ttftMs: 50, itlMs: 10 });
    const sample = sampleRequest(record, 11);
    expect(sample?.itlMs).toHaveLength(10);
    expect(sample?.e2eMs).toBe(150);
    expect(sample?.tpotMs).toBe(10);
    expect(sample?.tokens).toBe(11);
  });

  it("counts one gap per chunk when a chunk carries several tokens, as both benchmark clients do", () => {
    const record = steadyStream({ tokens: 12, ttftMs: 40, itlMs: 30, tokensPerChunk: 4 });
    const sample = sampleRequest(record, 12);
    expect(sample?.itlMs).toEqual([30, 30]);
    expect(sample?.tpotMs).toBeCloseTo(60 / 11, 9);
  });

  it("skips chunks that brought no new token (usage, keep-alive) in the ITL", () => {
    const record = explicitStream([
      { tMs: 10, tokens: 1 },
      { tMs: 15, tokens: 1 },
      { tMs: 30, tokens: 2 },
    ]);
    expect(sampleRequest(record, 2)?.itlMs).toEqual([20]);
  });

  it("leaves TPOT out for a one-token comparison and has no sample without tokens", () => {
    const one = steadyStream({ tokens: 5, ttftMs: 40, itlMs: 10 });
    expect(sampleRequest(one, 1)?.tpotMs).toBeNull();
    expect(sampleRequest(explicitStream([]), 1)).toBeNull();
    expect(sampleRequest(one, 0)).toBeNull();
  });

  it("keeps when the request was sent within its run, for the run's span", () => {
    expect(sampleRequest({ ...steadyStream({ tokens: 3, ttftMs: 5, itlMs: 5 }), sentMs: 750 }, 3)?.sentMs).toBe(750);
  });
});
