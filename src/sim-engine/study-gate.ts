import { type GateMode, type GateSettings, defaultGateMode } from "../scoring/evaluate-gate.js";
import { computeNoiseFloor } from "../scoring/noise-floor.js";
import { scoreRound } from "../scoring/score-round.js";
import type { SimProfileInput } from "./sim-profile.js";
import { simulateRound } from "./simulate-round.js";

/** A round setup on the reference engine, with the noise its profile injects. */
export interface GateScenario {
  /** The baseline engine; its `noise` is the runner's. */
  engine: SimProfileInput;
  promptIds: readonly string[];
  maxTokens: number;
  runs: number;
  tolerance: number;
  gate: Omit<GateSettings, "use">;
  /** Per run, a load both starts share (simulateRound's runLoad); none without. */
  runLoad?: number;
}

export interface GateStudyOptions {
  /** The engine under test, with the same noise (an unchanged engine is `scenario.engine` itself). */
  candidate: SimProfileInput;
  rounds: number;
  /** Calibrate on this many A/A rounds first (and again every `recalibrateEvery` rounds); without, the gate is interval-low. */
  calibrationRounds?: number;
  recalibrateEvery?: number;
  /** Another rule than the default one. */
  use?: GateMode;
  /** The first simulated round's number: studies from different numbers draw different noise. */
  firstRound?: number;
  /** Keep every round's gate reasons (GateStudyResult.reasons). */
  keepReasons?: boolean;
}

export interface GateStudyResult {
  rounds: number;
  passed: number;
  passRate: number;
  /** The noise floor of each calibration, as a fraction. */
  floors: number[];
  /**
   * Per round, how many times faster the candidate would have had to be to pass: the bar over
   * what the rule compares with it (the interval's low end, or the round score). Every time the
   * candidate takes scales by 1/s when it is s times faster, and with it the round score and its
   * interval, so a round passes at speedup s exactly when s ≥ its margin (Infinity when something
   * other than speed keeps it out). The detectable speedup is the 95th percentile of the margins.
   */
  margins: number[];
  /** Each round's gate reasons, when asked for (keepReasons). */
  reasons: string[][];
}

/** The p-quantile of a list (the smallest value with at least a share p at or below it). */
export function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * How often the gate passes a candidate over many simulated rounds of a scenario: with an unchanged
 * candidate this is the false-pass rate, with a faster one the power. Each calibration is its own
 * A/A study, as a team would run `speedgate calibrate`, so the rate includes the luck of calibrating.
 */
export function studyGate(scenario: GateScenario, options: GateStudyOptions): GateStudyResult {
  let round = options.firstRound ?? 0;
  const score = (candidate: SimProfileInput, gate: GateSettings, noise: { floor: number; problems: string[] } | null) =>
    scoreRound({
      promptIds: scenario.promptIds,
      runs: simulateRound({
        baseline: scenario.engine,
        candidate,
        promptIds: scenario.promptIds,
        runs: scenario.runs,
        maxTokens: scenario.maxTokens,
        round: round++,
      }),
      tolerance: scenario.tolerance,
      gate,
      noise,
    });
  const calibrated = options.calibrationRounds !== undefined;
  const gate: GateSettings = { ...scenario.gate, use: options.use ?? defaultGateMode(calibrated) };
  const every = options.recalibrateEvery ?? options.rounds;
  const floors: number[] = [];
  let noise: { floor: number; problems: string[] } | null = null;
  let passed = 0;
  const margins: number[] = [];
  const reasons: string[][] = [];
  for (let index = 0; index < options.rounds; index++) {
    if (calibrated && index % every === 0) {
      const scores: number[] = [];
      for (let aa = 0; aa < (options.calibrationRounds as number); aa++) {
        const result = score(scenario.engine, { ...gate, use: "round-score" }, null);
        if (result.roundScore === null || result.roundScore <= 0)
          throw new Error("an A/A round of the scenario has no score: the scenario's engine fails on its own");
        scores.push(result.roundScore);
      }
      const floor = computeNoiseFloor(scores).floor;
      floors.push(floor);
      noise = { floor, problems: [] };
    }
    const result = score(options.candidate, gate, noise);
    if (result.gate.passed) passed++;
    if (options.keepReasons) reasons.push(result.gate.reasons);
    const statistic = gate.use === "interval-low" ? (result.interval?.low ?? 0) : (result.roundScore ?? 0);
    const speedBound = result.gate.reasons.every((reason) => reason === result.gate.rule);
    margins.push(speedBound && statistic > 0 ? result.gate.bar / statistic : Number.POSITIVE_INFINITY);
  }
  return { rounds: options.rounds, passed, passRate: passed / options.rounds, floors, margins, reasons };
}
