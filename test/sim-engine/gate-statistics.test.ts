import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  DOCUMENTED_CALIBRATION_ROUNDS,
  DOCUMENTED_RUNNER,
  HARSH_RUNNER,
  bistableEngine,
  referenceScenario,
} from "../../src/sim-engine/gate-scenarios.js";
import type { SimProfileInput } from "../../src/sim-engine/sim-profile.js";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { DEFAULT_BENCH_RUNS } from "../../src/scoring/evaluate-gate.js";
import { fasterProfile } from "../../src/sim-engine/simulate-round.js";
import { studyGate } from "../../src/sim-engine/study-gate.js";

/*
 * The statistics of the gate on synthetic records from the reference engine's timing model, with
 * the jitter and run-level variance `speedgate sim-engine --jitter --run-variance` injects. Seeded:
 * every number below is the same on every machine; nothing here measures time.
 */

const ROUNDS = 200;
/** Each calibration serves 20 rounds, so the rates include the luck of ten separate A/A studies. */
const calibrated = { calibrationRounds: DOCUMENTED_CALIBRATION_ROUNDS, recalibrateEvery: 20 };

function withFaults(profile: SimProfileInput, faults: NonNullable<SimProfileInput["faults"]>): SimProfileInput {
  return { ...profile, faults };
}

describe("four fixed runs, the default before run budgets (bench.runs: 4)", () => {
  // The shipped SGLang round with bench.runs: 4 and no calibration: what every round got before budgets.
  const shipped = parse(readFileSync(new URL("../../examples/rounds/sglang.yaml", import.meta.url), "utf8")) as { bench: object };
  const defaults = parseRoundConfig({ ...shipped, bench: { ...shipped.bench, runs: DEFAULT_BENCH_RUNS } });
  const scenario = referenceScenario({ noise: HARSH_RUNNER, runs: DEFAULT_BENCH_RUNS });

  it("is the one studied here: not calibrated, the interval's low end, bench.runs 4 in counterbalanced order", () => {
    expect(defaults.gate.use).toBe("interval-low");
    expect(defaults.bench.runs).toBe(DEFAULT_BENCH_RUNS);
    expect(DEFAULT_BENCH_RUNS).toBe(4);
    expect(defaults.bench.order).toBe("counterbalanced");
  });

  it("lets an unchanged engine pass at most 5% of rounds when engine starts differ by 2%", () => {
    expect(studyGate(scenario, { candidate: scenario.engine, rounds: ROUNDS }).passRate).toBeLessThanOrEqual(0.05);
  });

  it("passes a 10% speedup at least 95% of the time when engine starts differ by 2%", () => {
    expect(
      studyGate(scenario, { candidate: fasterProfile(scenario.engine, 1.1), rounds: ROUNDS, firstRound: 2_000_000 }).passRate,
    ).toBeGreaterThanOrEqual(0.95);
  });

  it("would not hold with one run fewer: three runs pass a 10% speedup less than 95% of the time", () => {
    const three = referenceScenario({ noise: HARSH_RUNNER, runs: 3 });
    const margins = studyGate(three, { candidate: three.engine, rounds: ROUNDS }).margins;
    expect(margins.filter((margin) => margin <= 1.1).length / ROUNDS).toBeLessThan(0.95);
  });
});

describe("the calibrated gate (bench.runs 1, gate.calibration)", () => {
  it("lets an unchanged engine pass at most 5% of rounds, on the documented runner and on one whose engine starts differ by 2%", () => {
    for (const noise of [DOCUMENTED_RUNNER, HARSH_RUNNER]) {
      const scenario = referenceScenario({ noise });
      const study = studyGate(scenario, { candidate: scenario.engine, rounds: ROUNDS, ...calibrated });
      expect(study.rounds).toBe(ROUNDS);
      expect(study.passRate).toBeLessThanOrEqual(0.05);
      // The floors come from the A/A studies, and the noisier runner needs the higher bar.
      expect(study.floors).toHaveLength(ROUNDS / 20);
    }
  });

  it("passes a 10% speedup at least 95% of the time on the documented runner", () => {
    const scenario = referenceScenario({ noise: DOCUMENTED_RUNNER });
    const study = studyGate(scenario, {
      candidate: fasterProfile(scenario.engine, 1.1),
      rounds: ROUNDS,
      ...calibrated,
      firstRound: 1_000_000,
    });
    expect(study.passRate).toBeGreaterThanOrEqual(0.95);
  });

  it("raises the bar for a noisier runner", () => {
    const floors = [DOCUMENTED_RUNNER, HARSH_RUNNER].map((noise) => {
      const scenario = referenceScenario({ noise });
      const study = studyGate(scenario, { candidate: scenario.engine, rounds: 40, ...calibrated });
      return study.floors.reduce((sum, floor) => sum + floor, 0) / study.floors.length;
    });
    expect(floors[1]).toBeGreaterThan(floors[0] as number);
  });
});

describe("the uncalibrated default gate (interval-low)", () => {
  it("lets an unchanged engine pass at most 5% of rounds when engine starts do not differ", () => {
    const scenario = referenceScenario({ noise: { runVariance: 0, jitter: 0.03 } });
    expect(studyGate(scenario, { candidate: scenario.engine, rounds: ROUNDS }).passRate).toBeLessThanOrEqual(0.05);
  });

  it("with bench.runs 3, lets an unchanged engine pass at most 5% of rounds even when engine starts differ by 2%", () => {
    const scenario = referenceScenario({ noise: HARSH_RUNNER, runs: 3 });
    expect(studyGate(scenario, { candidate: scenario.engine, rounds: ROUNDS }).passRate).toBeLessThanOrEqual(0.05);
  });

  it("with one run, cannot see how much engine starts differ: why the card says so and calibration exists", () => {
    const scenario = referenceScenario({ noise: HARSH_RUNNER });
    // Not a goal but a fact the README states: the one-run interval is too narrow on a noisy runner.
    expect(studyGate(scenario, { candidate: scenario.engine, rounds: ROUNDS }).passRate).toBeGreaterThan(0.1);
  });
});

describe("a candidate that crashes or truncates never passes", () => {
  const scenario = referenceScenario({ noise: DOCUMENTED_RUNNER });
  const fast = fasterProfile(scenario.engine, 1.3);

  it("never passes when it dies after answering 27 of 30 prompts 30% faster, calibrated or not", () => {
    const crashing = withFaults(fast, { dieAfterRequests: 27 });
    expect(studyGate(scenario, { candidate: crashing, rounds: 50 }).passed).toBe(0);
    expect(studyGate(scenario, { candidate: crashing, rounds: 50, ...calibrated }).passed).toBe(0);
    expect(studyGate(referenceScenario({ noise: DOCUMENTED_RUNNER, runs: 3 }), { candidate: crashing, rounds: 20 }).passed).toBe(0);
  });

  it("never passes when it truncates 9 of 20 answers and is 20% faster on the rest", () => {
    const twenty = referenceScenario({ noise: DOCUMENTED_RUNNER, prompts: 20 });
    const truncating = withFaults(fasterProfile(twenty.engine, 1.2), { stopEarly: twenty.promptIds.slice(0, 9), stopEarlyFraction: 0.5 });
    expect(studyGate(twenty, { candidate: truncating, rounds: 50 }).passed).toBe(0);
    expect(studyGate(twenty, { candidate: truncating, rounds: 50, ...calibrated }).passed).toBe(0);
  });

  it("never passes when just over gate.maxUnscored of its answers are cut short", () => {
    const truncating = withFaults(fast, { stopEarly: scenario.promptIds.slice(0, 4), stopEarlyFraction: 0.5 });
    expect(studyGate(scenario, { candidate: truncating, rounds: 50, ...calibrated }).passed).toBe(0);
  });
});

describe("the margins the bench reads the detectable speedup from", () => {
  it("say exactly which rounds an s-times faster engine passes: the round score and interval scale by s", () => {
    const scenario = referenceScenario({ noise: HARSH_RUNNER });
    const unchanged = studyGate(scenario, { candidate: scenario.engine, rounds: 100, firstRound: 500 });
    for (const speedup of [1.02, 1.04]) {
      const faster = studyGate(scenario, { candidate: fasterProfile(scenario.engine, speedup), rounds: 100, firstRound: 500 });
      expect(faster.passed).toBe(unchanged.margins.filter((margin) => margin <= speedup).length);
      expect(faster.passed).toBeGreaterThan(unchanged.passed);
    }
  });
});

describe("the default gate on a nondeterministic engine: a quarter of the prompts answered either of two ways from run to run", () => {
  // As the GPU round showed it (#28): at a near-tie the engine takes either continuation, drawn per request.
  const reference = referenceScenario({ noise: DOCUMENTED_RUNNER, runs: DEFAULT_BENCH_RUNS });
  const ROUNDS_BISTABLE = 100;

  for (const probability of [0.5, 0.2]) {
    const scenario = { ...reference, engine: bistableEngine(reference.engine, probability) };

    it(
      `lets an unchanged engine pass at most 5% of rounds, and scores every prompt in most of them (${probability * 100}% take the ` +
        `second continuation)`,
      () => {
        const study = studyGate(scenario, { candidate: scenario.engine, rounds: ROUNDS_BISTABLE, keepReasons: true });
        expect(study.passRate).toBeLessThanOrEqual(0.05);
        // Failing for speed alone in most rounds: each integrity rule holds back at most 5% of them. Together they
        // cost more at 20/80 (7 of these 100 rounds, #38): an early parting the baseline never showed in four runs
        // is a zero, and the shuffle counts only the candidate's side, which closed unique filler.
        for (const rule of [/not scored/, /none the baseline gave.*shuffling/, /none the baseline gave.*far more than the engine's own/]) {
          expect(study.reasons.filter((reasons) => reasons.some((reason) => rule.test(reason))).length).toBeLessThanOrEqual(
            0.05 * ROUNDS_BISTABLE,
          );
        }
        expect(
          study.reasons.filter((reasons) => reasons.some((reason) => /not scored|none the baseline gave/.test(reason))).length,
        ).toBeLessThanOrEqual(0.08 * ROUNDS_BISTABLE);
      },
    );

    it(`passes a 10% speedup at least 95% of the time (${probability * 100}% take the second continuation)`, () => {
      const study = studyGate(scenario, { candidate: fasterProfile(scenario.engine, 1.1), rounds: ROUNDS_BISTABLE, firstRound: 3_000_000 });
      expect(study.passRate).toBeGreaterThanOrEqual(0.95);
    });
  }

  it(
    "never passes a 10% faster candidate that streams filler where it would take the second continuation, nor one with other words " +
      "after token 8",
    () => {
      const scenario = { ...reference, engine: bistableEngine(reference.engine, 0.5) };
      const filler = studyGate(scenario, {
        candidate: fasterProfile({ ...scenario.engine, cheats: { fillerAtBranch: true } }, 1.1),
        rounds: 40,
        firstRound: 4_000_000,
        keepReasons: true,
      });
      expect(filler.passRate).toBeLessThanOrEqual(0.05);
      // The unexplained rule is what stops it (96.8% of 400 rounds in bench/gate-statistics.ts), not its speed alone.
      expect(
        filler.reasons.filter((reasons) => reasons.some((reason) => reason.includes("none the baseline gave"))).length,
      ).toBeGreaterThanOrEqual(0.9 * 40);
      const early = studyGate(scenario, {
        candidate: fasterProfile({ ...scenario.engine, cheats: { fillerAfterTokens: 8 } }, 1.5),
        rounds: 20,
        firstRound: 5_000_000,
      });
      expect(early.passRate).toBe(0);
    },
  );
});
