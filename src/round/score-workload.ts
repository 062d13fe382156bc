import type { CardCalibration } from "../calibration/calibration-schema.js";
import { fitCalibration } from "../calibration/fit-calibration.js";
import { calibrationSourceOf } from "../config/load-round-calibration.js";
import type { LoadedRound } from "../config/load-round-config.js";
import { mostRuns, runBudgetOf } from "../config/run-plan.js";
import { type Provenance, cardSettings } from "../scorecard/build-scorecard.js";
import { calibrationFacts } from "../scorecard/rescore-card.js";
import { calibratedSpread } from "../scoring/decide-sequential.js";
import type { QuestionOutcome } from "../scoring/judge-quality.js";
import { type RoundResult, type RoundRun, scoreRound } from "../scoring/score-round.js";
import type { EngineFailure } from "../vocabulary/engine-failure.js";
import type { RoundWorkload } from "./list-round-workloads.js";

/**
 * One workload's runs scored and gated, with the calibration fitted to it: what its card is built
 * from at the end, and what a budget's rule decides from after each look, the same way both times.
 * The calibration is fitted from the facts the card keeps, so the app's re-gate decides the fit the same way.
 */
export function scoreWorkload(input: {
  round: Pick<LoadedRound, "calibration">;
  workload: RoundWorkload;
  runs: readonly RoundRun[];
  failure: EngineFailure | null;
  provenance: Provenance;
  /** The question set's outcomes, judged on the card; a look leaves them out (null): it decides the speed alone. */
  quality?: readonly QuestionOutcome[] | null;
}): { result: RoundResult; calibration: CardCalibration | null; provenance: Provenance } {
  const { workload, round } = input;
  const settings = workload.config;
  const provenance = workload.fingerprint ? { ...input.provenance, ...workload.fingerprint } : input.provenance;
  const sequentialRule = settings.gate.use === "sequential";
  const calibration = round.calibration
    ? fitCalibration(
        calibrationSourceOf(round.calibration, workload.name),
        calibrationFacts({ engine: settings.engine, provenance, settings: cardSettings(settings) }, sequentialRule),
      )
    : null;
  const planned = mostRuns(settings.bench.runs);
  const budget = runBudgetOf(settings.bench.runs) ?? { min: planned, max: planned };
  const result = scoreRound({
    promptIds: workload.prompts.map((prompt) => prompt.id),
    runs: input.runs,
    failure: input.failure,
    plannedRuns: planned,
    tolerance: settings.bench.tolerance,
    gate: settings.gate,
    agreementTokens: settings.bench.agreementTokens,
    minPromptAgreement: settings.bench.minPromptAgreement,
    noise: calibration
      ? { floor: calibration.noiseFloor, problems: calibration.problems, selfAgreement: calibration.selfAgreement ?? null }
      : null,
    quality: input.quality ?? null,
    sequential: sequentialRule
      ? {
          budget,
          order: settings.bench.order,
          calibrated:
            calibration && calibration.problems.length === 0 ? calibratedSpread(calibration.scores, calibration.settings.runs) : null,
        }
      : null,
  });
  return { result, calibration, provenance };
}
