import { describe, expect, it } from "vitest";
import { wilsonInterval } from "../../bench/sequential-gate-statistics.js";
import { H200_RUNNER, referenceScenario } from "../../src/sim-engine/gate-scenarios.js";
import type { SimProfileInput } from "../../src/sim-engine/sim-profile.js";
import { fasterProfile, runLoadFactor, simulateRound } from "../../src/sim-engine/simulate-round.js";
import type { RequestRecord } from "../../src/scoring/request-record.js";
import { measureRunSpread } from "../../src/scoring/measure-run-spread.js";
import { studySequentialGate } from "../../src/sim-engine/study-sequential-gate.js";

// The full study (400 rounds a setup) is bench/sequential-gate-statistics.ts; these few seeded rounds check what it rests on.
describe("the sequential gate played look by look on the reference engine, engine starts differing by 8%", () => {
  const scenario = referenceScenario({ noise: H200_RUNNER });

  it("stops a 1.5× speedup at its first look, after 2 runs of each engine, in nearly every round", () => {
    const study = studySequentialGate(scenario, {
      candidate: fasterProfile(scenario.engine, 1.5),
      rounds: 40,
      budget: { min: 2, max: 16 },
      firstRound: 7_000,
    });
    expect(study.passed).toBe(40);
    expect(study.runs.filter((runs) => runs === 2).length).toBeGreaterThanOrEqual(36);
    expect(new Set(study.stops)).toEqual(new Set(["decided"]));
  });

  it("rules an unchanged engine out before the budget in most rounds, and plays on past the first look where it cannot", () => {
    const study = studySequentialGate(scenario, { candidate: scenario.engine, rounds: 40, budget: { min: 2, max: 16 }, firstRound: 9_000 });
    expect(study.passed).toBeLessThanOrEqual(4);
    expect(study.stops.filter((stop) => stop === "ruled-out").length).toBeGreaterThanOrEqual(34);
    // Optional stopping is real here: the rounds do not all stop at one look.
    expect(new Set(study.runs).size).toBeGreaterThan(2);
  });

  it("stops a candidate that cuts its answers at the first look, whatever its speed: more runs do not fix a cut", () => {
    const cutting: SimProfileInput = {
      ...fasterProfile(scenario.engine, 1.3),
      faults: { stopEarly: scenario.promptIds.slice(0, 6), stopEarlyFraction: 0.5 },
    };
    const study = studySequentialGate(scenario, { candidate: cutting, rounds: 5, budget: { min: 2, max: 16 }, firstRound: 11_000 });
    expect(study.passed).toBe(0);
    expect(study.runs).toEqual([2, 2, 2, 2, 2]);
    expect(new Set(study.stops)).toEqual(new Set(["integrity"]));
  });
});

describe("wilsonInterval", () => {
  it("gives the textbook interval, honest at zero", () => {
    const { low, high } = wilsonInterval(19, 400);
    expect(low).toBeCloseTo(0.0306, 3);
    expect(high).toBeCloseTo(0.0731, 3);
    expect(wilsonInterval(0, 20).low).toBe(0);
    expect(wilsonInterval(0, 20).high).toBeCloseTo(0.1611, 3);
  });
});

describe("a load both starts of a run share (runLoad, the end-to-end runner of issue #43)", () => {
  const quiet = referenceScenario({ noise: { runVariance: 0, jitter: 0 } });
  const endOf = (records: ReadonlyMap<string, RequestRecord>, id: string): number => {
    const record = records.get(id);
    if (!record?.ok) throw new Error(`no answer to ${id}`);
    return record.endMs;
  };

  it("slows the baseline and the candidate of one run alike, so each engine's starts differ while the run's ratios do not", () => {
    const runs = simulateRound({
      baseline: quiet.engine,
      candidate: fasterProfile(quiet.engine, 1.25),
      promptIds: quiet.promptIds,
      runs: 4,
      maxTokens: quiet.maxTokens,
      round: 3,
      runLoad: 0.2,
    });
    const id = quiet.promptIds[0] as string;
    const baselineTimes = runs.map((run) => endOf(run.baseline.records, id));
    const ratios = runs.map((run) => endOf(run.baseline.records, id) / endOf(run.candidate.records, id));
    // Four loads drawn at 20%: their starts differ by several percent at the least.
    expect(Math.max(...baselineTimes) / Math.min(...baselineTimes)).toBeGreaterThan(1.05);
    for (const ratio of ratios) expect(ratio).toBeCloseTo(1.25, 6);
    // The spread the rule reads from the starts counts the load; the run scores do not see it.
    const prompts = quiet.promptIds.map((promptId) => ({
      runs: runs.map((run) => ({
        status: "scored" as const,
        comparedTokens: 1,
        baselineMs: endOf(run.baseline.records, promptId),
        candidateMs: endOf(run.candidate.records, promptId),
      })),
    }));
    const spread = measureRunSpread(prompts, ratios, 4);
    expect(spread?.source).toBe("starts");
    expect(spread?.startSd).toBeGreaterThan(0.02);
    expect(spread?.logScores.every((value) => Math.abs(value - Math.log(1.25)) < 1e-6)).toBe(true);
  });

  it("draws nothing without a load, and the same load for the same round and run", () => {
    expect(runLoadFactor(0, 5, 1)).toBe(1);
    expect(runLoadFactor(0.05, 5, 1)).toBe(runLoadFactor(0.05, 5, 1));
    expect(runLoadFactor(0.05, 5, 1)).not.toBe(runLoadFactor(0.05, 5, 2));
    expect(runLoadFactor(0.05, 5, 1)).not.toBe(runLoadFactor(0.05, 6, 1));
  });
});
