import { describe, expect, it } from "vitest";
import { createSimNoise } from "../../src/sim-engine/sim-noise.js";
import { simProfileSchema } from "../../src/sim-engine/sim-profile.js";
import { fasterProfile, simulateBenchmark } from "../../src/sim-engine/simulate-round.js";
import { timeToTokens } from "../../src/scoring/request-record.js";

const settings = { jitter: 0.03, runVariance: 0.02, seed: 5 };

function logSd(values: number[]): number {
  const logs = values.map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  return Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
}

describe("createSimNoise", () => {
  it("draws the same factors for the same seed and start, and another speed for another start", () => {
    const a = createSimNoise(settings, 3);
    const b = createSimNoise(settings, 3);
    expect(a.runFactor).toBe(b.runFactor);
    expect([a.requestFactor("p1"), a.requestFactor("p1"), a.requestFactor("p2")]).toEqual([
      b.requestFactor("p1"),
      b.requestFactor("p1"),
      b.requestFactor("p2"),
    ]);
    expect(createSimNoise(settings, 4).runFactor).not.toBe(a.runFactor);
  });

  it("spreads starts and requests by the standard deviations asked for, on the log scale", () => {
    const starts = Array.from({ length: 2000 }, (_, start) => createSimNoise(settings, start).runFactor);
    expect(logSd(starts)).toBeGreaterThan(0.018);
    expect(logSd(starts)).toBeLessThan(0.022);
    const noise = createSimNoise({ ...settings, runVariance: 0 }, 0);
    const requests = Array.from({ length: 2000 }, (_, index) => noise.requestFactor(`p${index}`));
    expect(logSd(requests)).toBeGreaterThan(0.027);
    expect(logSd(requests)).toBeLessThan(0.033);
  });

  it("is silent without noise", () => {
    const noise = createSimNoise({ jitter: 0, runVariance: 0, seed: null }, 0);
    expect([noise.runFactor, noise.requestFactor("p")]).toEqual([1, 1]);
  });
});

describe("simulateBenchmark", () => {
  const profile = simProfileSchema.parse({
    defaults: { ttftMs: 30, itlMs: 6, outputTokens: 50, tokensPerChunk: 4 },
    prompts: { long: { outputTokens: 90 } },
  });

  it("schedules chunks as the engine does: the chunk reaching token n at ttft + (n − 1)·itl", () => {
    const { records } = simulateBenchmark(profile, ["short", "long"], { start: 0, maxTokens: 64, thinking: false, role: "baseline" });
    const long = records.get("long");
    expect(long).toMatchObject({ ok: true, outputTokens: 64, finishReason: "length" });
    if (!long?.ok) throw new Error("expected an answer");
    expect(long.chunks).toHaveLength(16);
    expect(timeToTokens(long, 64)).toBe(30 + 63 * 6);
    expect(long.chunks[0]).toEqual({ tMs: 30 + 3 * 6, tokens: 4 });
  });

  it("makes a faster profile exactly that much faster at every length", () => {
    const faster = simProfileSchema.parse(fasterProfile(profile, 1.25));
    const base = simulateBenchmark(profile, ["p"], { start: 0, maxTokens: 64, thinking: false, role: "baseline" }).records.get("p");
    const fast = simulateBenchmark(faster, ["p"], { start: 0, maxTokens: 64, thinking: false, role: "candidate" }).records.get("p");
    if (!base?.ok || !fast?.ok) throw new Error("expected answers");
    expect(timeToTokens(base, 50) / timeToTokens(fast, 50)).toBeCloseTo(1.25, 12);
  });

  it("dies after the requests the fault allows, with the failure a real death gives", () => {
    const dying = simProfileSchema.parse({ ...profile, faults: { dieAfterRequests: 1 } });
    const { records, failure } = simulateBenchmark(dying, ["a", "b"], { start: 0, maxTokens: 64, thinking: false, role: "candidate" });
    expect(records.get("a")?.ok).toBe(true);
    expect(records.get("b")).toMatchObject({ ok: false, kind: "engine_died" });
    expect(failure).toMatchObject({ engine: "candidate", stage: "benchmark", kind: "exited", prompt: { number: 2, id: "b" } });
  });
});
