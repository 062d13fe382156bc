import { describe, expect, it } from "vitest";
import type { EngineFailure } from "../../src/failure/engine-failure.js";
import type { RequestRecord } from "../../src/scoring/request-record.js";
import { scoreRound } from "../../src/scoring/score-round.js";
import { failedRequest, steadyStream } from "../support/make-records.js";

const gate = { minRoundScore: 1.0, use: "round-score" as const };

function records(entries: Array<[string, RequestRecord]>): Map<string, RequestRecord> {
  return new Map(entries);
}

/** Candidate timelines with a chosen speedup over a fixed baseline timeline. */
function withSpeedups(speedups: number[]) {
  const ids = speedups.map((_, index) => `p${index + 1}`);
  const baseline = records(ids.map((id) => [id, steadyStream({ tokens: 100, ttftMs: 100, itlMs: 10 })]));
  const candidate = records(
    ids.map((id, index) => {
      const s = speedups[index] as number;
      return [id, steadyStream({ tokens: 100, ttftMs: 100 / s, itlMs: 10 / s })];
    }),
  );
  return { ids, baseline, candidate };
}

const startupOom: EngineFailure = {
  engine: "candidate",
  stage: "startup",
  kind: "cuda_oom",
  label: "CUDA out of memory during CUDA graph capture",
  summary: "torch.OutOfMemoryError: CUDA out of memory.",
  hint: "lower --mem-fraction-static",
  exitCode: 1,
  signal: null,
  logTail: [],
};

describe("scoreRound", () => {
  it("takes the median of an odd count of scores", () => {
    const { ids, baseline, candidate } = withSpeedups([1.5, 0.8, 1.2]);
    const result = scoreRound({ promptIds: ids, baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null }, tolerance: 0.9, gate });
    expect(result.roundScore).toBeCloseTo(1.2, 10);
    expect(result.promptsScored).toBe(3);
    expect(result.gate.passed).toBe(true);
  });

  it("takes the mean of the middle two for an even count, zeros included", () => {
    const { ids, baseline, candidate } = withSpeedups([2, 1.2, 1.4, 1]);
    candidate.set("p1", steadyStream({ tokens: 10, ttftMs: 1, itlMs: 1 })); // below tolerance: 0
    const result = scoreRound({ promptIds: ids, baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null }, tolerance: 0.9, gate });
    // scores: 0, 1.2, 1.4, 1 -> sorted 0, 1, 1.2, 1.4 -> (1 + 1.2) / 2
    expect(result.roundScore).toBeCloseTo(1.1, 10);
    expect(result.belowTolerance).toBe(1);
    expect(result.prompts[0]?.reason).toBe("answered 10 of 100 tokens (tolerance 90%)");
  });

  it("leaves excluded prompts out of the median and the counts that score", () => {
    const { ids, baseline, candidate } = withSpeedups([3, 1.1, 1.2]);
    baseline.set("p1", failedRequest("HTTP 500: boom"));
    const result = scoreRound({ promptIds: ids, baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null }, tolerance: 0.9, gate });
    expect(result.excluded).toBe(1);
    expect(result.roundScore).toBeCloseTo(1.15, 10);
    expect(result.promptsTotal).toBe(3);
  });

  it("gives every prompt zero when all are gated, and fails the gate", () => {
    const { ids, baseline } = withSpeedups([1, 1, 1]);
    const candidate = records(ids.map((id) => [id, steadyStream({ tokens: 5, ttftMs: 1, itlMs: 1 })]));
    const result = scoreRound({ promptIds: ids, baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null }, tolerance: 0.9, gate });
    expect(result.roundScore).toBe(0);
    expect(result.belowTolerance).toBe(3);
    expect(result.gate).toMatchObject({ passed: false, reason: "round score 0.00× < 1.00×" });
  });

  it("has no round score for no prompts", () => {
    const result = scoreRound({ promptIds: [], baseline: { records: new Map(), failure: null }, candidate: { records: new Map(), failure: null }, tolerance: 0.9, gate });
    expect(result.roundScore).toBeNull();
    expect(result.interval).toBeNull();
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reason).toBe("no round score: no prompt was attempted");
  });

  it("has no round score when the candidate died before serving, and zeroes each prompt with the reason", () => {
    const { ids, baseline } = withSpeedups([1, 1]);
    const result = scoreRound({ promptIds: ids, baseline: { records: baseline, failure: null }, candidate: { records: new Map(), failure: startupOom }, tolerance: 0.9, gate });
    expect(result.roundScore).toBeNull();
    expect(result.zeroedTotal).toBe(2);
    expect(result.prompts[0]?.reason).toBe("candidate engine failed at startup (CUDA out of memory during CUDA graph capture)");
    expect(result.gate.reason).toContain("CUDA out of memory during CUDA graph capture");
  });

  it("counts zeroes when the candidate died halfway: measured prompts keep their scores", () => {
    const { ids, baseline, candidate } = withSpeedups([1.5, 1.5, 1.5]);
    candidate.delete("p2");
    candidate.delete("p3");
    const died: EngineFailure = { ...startupOom, stage: "benchmark", kind: "exited", label: "exited with code 1" };
    const result = scoreRound({ promptIds: ids, baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: died }, tolerance: 0.9, gate });
    expect(result.roundScore).toBe(0);
    expect(result.zeroedTotal).toBe(2);
    expect(result.prompts[2]?.reason).toBe("candidate engine died during the benchmark (exited with code 1)");
  });

  it("never passes the gate when the baseline failed, and says the baseline, not the patch, failed", () => {
    const { ids, baseline, candidate } = withSpeedups([2, 2, 2]);
    const baselineFailure: EngineFailure = { ...startupOom, engine: "baseline", stage: "benchmark", kind: "exited", label: "exited with code 1" };
    baseline.delete("p3");
    const result = scoreRound({ promptIds: ids, baseline: { records: baseline, failure: baselineFailure }, candidate: { records: candidate, failure: null }, tolerance: 0.9, gate });
    expect(result.roundScore).toBeCloseTo(2, 10);
    expect(result.excluded).toBe(1);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reason).toMatch(/^the baseline engine failed, not the patch/);
  });

  it("never passes the gate when the candidate's runtime went away mid-benchmark, however fast the measured prompts were", () => {
    const { ids, baseline, candidate } = withSpeedups([2, 2, 2]);
    candidate.delete("p3");
    const lost: EngineFailure = { ...startupOom, stage: "benchmark", kind: "infrastructure", label: "the Docker daemon went away (infrastructure, not the patch)" };
    const result = scoreRound({ promptIds: ids, baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: lost }, tolerance: 0.9, gate });
    expect(result.roundScore).toBeCloseTo(2, 10);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reason).toMatch(/^the infrastructure failed, not the patch: .*Docker daemon went away/);
    expect(result.prompts[2]?.reason).toBe("candidate engine was not measured at benchmark (the Docker daemon went away (infrastructure, not the patch))");
  });

  it("gives the same interval for the same data", () => {
    const { ids, baseline, candidate } = withSpeedups([0.9, 1.1, 1.3, 1.2, 1.05, 0.95, 1.4, 1.15]);
    const input = { promptIds: ids, baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null }, tolerance: 0.9, gate };
    const first = scoreRound(input);
    const second = scoreRound(input);
    expect(first.interval).not.toBeNull();
    expect(second.interval).toEqual(first.interval);
    expect(first.interval?.low).toBeLessThanOrEqual(first.roundScore as number);
    expect(first.interval?.high).toBeGreaterThanOrEqual(first.roundScore as number);
  });
});
