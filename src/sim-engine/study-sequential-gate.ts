import { type CalibratedSpread, calibratedSpread } from "../scoring/decide-sequential.js";
import type { GateSettings } from "../scoring/evaluate-gate.js";
import type { LookStop } from "../scoring/judge-look.js";
import { type RunBudget, type SequentialOrder, lookRuns } from "../scoring/sequential-design.js";
import { type RoundResult, scoreRound } from "../scoring/score-round.js";
import type { SimProfileInput } from "./sim-profile.js";
import { simulateRound } from "./simulate-round.js";
import type { GateScenario } from "./study-gate.js";

const CALIBRATION_ROUNDS_FROM = 50_000_000;

export interface SequentialStudyOptions {
  /** The engine under test, with the same noise (an unchanged engine is `scenario.engine` itself). */
  candidate: SimProfileInput;
  rounds: number;
  budget: RunBudget;
  order?: SequentialOrder;
  /** The first simulated round's number: studies from different numbers draw different noise. */
  firstRound?: number;
  /** Calibrate on this many A/A rounds of `budget.min` runs first (and again every `recalibrateEvery` rounds). */
  calibrationRounds?: number;
  recalibrateEvery?: number;
  /** Keep every round's gate reasons (SequentialStudyResult.reasons). */
  keepReasons?: boolean;
}

export interface SequentialStudyResult {
  rounds: number;
  passed: number;
  passRate: number;
  /** Per round, the runs of each engine it took. */
  runs: number[];
  /** Per round, why it stopped. */
  stops: Array<LookStop | null>;
  /** Each round's gate reasons, when asked for. */
  reasons: string[][];
}

/**
 * A round with a run budget played look by look as runRound plays it: all the round's runs are drawn
 * at once (each start its own noise), and after each look the runs so far are scored and judged
 * (judgeLook); the round stops at the first look that says so, which is optional stopping exactly as
 * a real round does it. Every look goes through scoreRound, the code a real round runs.
 */
export function playSequentialRound(
  scenario: GateScenario,
  candidate: SimProfileInput,
  options: { budget: RunBudget; order: SequentialOrder; round: number; calibrated: CalibratedSpread | null },
): RoundResult {
  const runs = simulateRound({
    baseline: scenario.engine,
    candidate,
    promptIds: scenario.promptIds,
    runs: options.budget.max,
    maxTokens: scenario.maxTokens,
    round: options.round,
    runLoad: scenario.runLoad ?? 0,
  });
  const gate: GateSettings = { ...scenario.gate, use: "sequential" };
  const noise = options.calibrated ? { floor: 0, problems: [] } : null;
  let result: RoundResult | null = null;
  for (const look of lookRuns(options.budget, options.order)) {
    result = scoreRound({
      promptIds: scenario.promptIds,
      runs: runs.slice(0, look),
      tolerance: scenario.tolerance,
      gate,
      noise,
      sequential: { budget: options.budget, order: options.order, calibrated: options.calibrated },
    });
    if (result.sequential?.stop) break;
  }
  if (!result) throw new Error("a budget has at least one look");
  return result;
}

/**
 * How often the sequential gate passes a candidate over many simulated rounds of a scenario, and how
 * many runs each took: with an unchanged candidate the false-pass rate, optional stopping included.
 * With calibrationRounds, each calibration is its own A/A study of `budget.min`-run rounds.
 */
export function studySequentialGate(scenario: GateScenario, options: SequentialStudyOptions): SequentialStudyResult {
  const order = options.order ?? "counterbalanced";
  let round = options.firstRound ?? 0;
  const every = options.recalibrateEvery ?? options.rounds;
  let calibrated: CalibratedSpread | null = null;
  // A/A rounds draw from numbers of their own, far from the rounds', so no engine start of one is a start of the other.
  let aaRound = CALIBRATION_ROUNDS_FROM + (options.firstRound ?? 0);
  const result: SequentialStudyResult = { rounds: options.rounds, passed: 0, passRate: 0, runs: [], stops: [], reasons: [] };
  for (let index = 0; index < options.rounds; index++) {
    if (options.calibrationRounds !== undefined && index % every === 0) {
      const scores: number[] = [];
      for (let aa = 0; aa < options.calibrationRounds; aa++) {
        const study = scoreRound({
          promptIds: scenario.promptIds,
          runs: simulateRound({
            baseline: scenario.engine,
            candidate: scenario.engine,
            promptIds: scenario.promptIds,
            runs: options.budget.min,
            maxTokens: scenario.maxTokens,
            round: aaRound++,
            runLoad: scenario.runLoad ?? 0,
          }),
          tolerance: scenario.tolerance,
          gate: { ...scenario.gate, use: "round-score" },
        });
        if (study.roundScore === null || study.roundScore <= 0) throw new Error("an A/A round of the scenario has no score");
        scores.push(study.roundScore);
      }
      calibrated = calibratedSpread(scores, options.budget.min);
    }
    const played = playSequentialRound(scenario, options.candidate, { budget: options.budget, order, round: round++, calibrated });
    if (played.gate.passed) result.passed++;
    result.runs.push(played.runs.completed);
    result.stops.push(played.sequential?.stop ?? null);
    if (options.keepReasons) result.reasons.push(played.gate.reasons);
  }
  result.passRate = result.passed / options.rounds;
  return result;
}
