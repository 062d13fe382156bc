import {
  CALIBRATION_KIND,
  CALIBRATION_SCHEMA_VERSION,
  type CalibrationFile,
  type CalibrationScenario,
} from "../../src/calibration/calibration-schema.js";
import { calibrationSettingsOf } from "../../src/config/calibration-settings.js";
import { computeNoiseFloor } from "../../src/scoring/noise-floor.js";
import { testConfig } from "../../harness/make-card.js";

/**
 * One A/A study as a calibration file holds it: testConfig's settings with `prompts` prompts, a round
 * per score in which the baseline agreed with itself, and the noise without its count of rounds.
 */
export function makeCalibrationStudy(scores: readonly number[], prompts: number): Omit<CalibrationScenario, "name" | "promptsHash"> {
  const { rounds: _rounds, ...noise } = computeNoiseFloor(scores);
  return {
    settings: calibrationSettingsOf(testConfig, prompts),
    rounds: scores.map((roundScore) => ({
      roundScore,
      runScores: [roundScore],
      promptsCompared: prompts,
      unscored: 0,
      disagreed: 0,
      medianAgreement: 1,
    })),
    noise,
  };
}

/** A calibration file of a CPU runner's process round, on the study of `scores` over `prompts` prompts. */
export function makeCalibrationFile(scores: readonly number[], prompts = 12): CalibrationFile {
  return {
    kind: CALIBRATION_KIND,
    schemaVersion: CALIBRATION_SCHEMA_VERSION,
    speedgateVersion: "0.1.0",
    measuredAt: "2026-12-04T12:00:00.000Z",
    engine: "llama.cpp",
    runtime: "process",
    runner: "cpu-runner",
    gpu: null,
    baselineImage: null,
    baselineImageId: null,
    baselineHash: "0".repeat(64),
    promptsHash: "1".repeat(64),
    ...makeCalibrationStudy(scores, prompts),
  };
}
