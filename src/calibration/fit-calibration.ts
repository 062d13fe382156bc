import { describeValue } from "../vocabulary/describe-value.js";
import type { CardCalibration } from "./calibration-schema.js";
import { computeNoiseFloor } from "../scoring/noise-floor.js";
import type { CalibrationSettings } from "./calibration-schema.js";

/** What a calibration's noise depends on, as a card records it about its round. */
export interface CalibrationFacts {
  engine: string;
  gpu: string | null;
  runner: string | null;
  baselineImage: string | null;
  baselineImageId: string | null;
  promptsHash: string | null;
  settings: Partial<CalibrationSettings>;
}

export type CalibrationSource = Omit<CardCalibration, "noiseFloor" | "detectableSpeedup" | "problems" | "notes">;

const SETTING_NAMES: Record<keyof CalibrationSettings, string> = {
  requestIntervalMs: "bench.requestIntervalMs",
  arrival: "bench.arrival",
  concurrency: "bench.concurrency",
  seed: "bench.seed",
  thinking: "bench.thinking",
  contextLimit: "bench.contextLimit",
  maxTokens: "bench.maxTokens",
  tolerance: "bench.tolerance",
  model: "bench.model",
  runs: "bench.runs",
  order: "bench.order",
  clientWarmup: "bench.clientWarmup",
  warmupRequests: "bench.warmupRequests",
  prompts: "the number of prompts",
};

/** Each setting the round has that differs from the calibration's, as `bench.runs is 3, the calibration used 1`. */
export function describeSettingDifferences(calibrated: CalibrationSettings, round: Partial<CalibrationSettings>): string[] {
  const differences: string[] = [];
  for (const key of Object.keys(SETTING_NAMES) as Array<keyof CalibrationSettings>) {
    const value = round[key];
    if (value === undefined || value === calibrated[key]) continue;
    differences.push(`${SETTING_NAMES[key]} is ${describeValue(value)}, the calibration used ${describeValue(calibrated[key])}`);
  }
  return differences;
}

/** Why a scenario the calibration holds no study of cannot gate on it, and what fixes that. */
export function describeMissingScenario(name: string): string {
  return `the calibration has no scenario ${name}: run speedgate calibrate again with this round config`;
}

/**
 * The calibration as the card shows it, with its noise floor recomputed from the A/A scores and
 * its fit to this round decided from the card's own facts, so the app's re-gate reaches the same
 * verdict as the runner without trusting either's conclusion. The GPU and a pulled baseline image
 * must match (another GPU or engine build is another noise); the runner's name may differ, since
 * ephemeral runners get a new name each job, and the card says so.
 */
export function fitCalibration(source: CalibrationSource, facts: CalibrationFacts): CardCalibration {
  const noise = computeNoiseFloor(source.scores);
  const problems: string[] = [];
  const notes: string[] = [];
  if (source.engine !== facts.engine)
    problems.push(`it is for engine ${describeValue(source.engine)}, this round's is ${describeValue(facts.engine)}`);
  if (source.scenario && !source.scenario.studied) {
    // The copy is another workload's study: its prompts and settings say nothing of this one's, so they are not compared.
    problems.push(describeMissingScenario(source.scenario.name));
  } else {
    if (facts.promptsHash !== null && source.promptsHash !== facts.promptsHash) problems.push("it was measured on another prompt set");
    problems.push(...describeSettingDifferences(source.settings, facts.settings));
  }
  if (source.gpu !== facts.gpu)
    problems.push(`it was measured on GPU ${describeValue(source.gpu)}, this round ran on ${describeValue(facts.gpu)}`);
  if (source.baselineImage !== facts.baselineImage) {
    problems.push(
      `it was measured with baseline image ${describeValue(source.baselineImage)}, this round's is ${describeValue(facts.baselineImage)}`,
    );
  } else if (source.baselineImage !== null && source.baselineImageId !== facts.baselineImageId) {
    // A pulled tag that moved is another engine build; a locally built baseline's ID changes with every build and is not compared.
    problems.push(
      `the baseline image ${source.baselineImage} changed since the calibration (${describeValue(source.baselineImageId)} then, ` +
        `${describeValue(facts.baselineImageId)} now)`,
    );
  }
  if (source.runner !== facts.runner) {
    const same = source.gpu === facts.gpu ? " (the same GPU)" : "";
    notes.push(`measured on runner ${describeValue(source.runner)}, this round ran on ${describeValue(facts.runner)}${same}`);
  }
  return { ...source, noiseFloor: noise.floor, detectableSpeedup: noise.detectableSpeedup, problems, notes };
}
