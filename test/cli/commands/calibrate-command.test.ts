import { describe, expect, it } from "vitest";
import { CALIBRATION_KIND, CALIBRATION_SCHEMA_VERSION, type CalibrationFile } from "../../../src/calibration/calibration-schema.js";
import { describeCalibration } from "../../../src/cli/commands/calibrate-command.js";
import { calibrationSettingsOf } from "../../../src/config/calibration-settings.js";
import { computeNoiseFloor } from "../../../src/scoring/noise-floor.js";
import { testConfig } from "../../support/make-card.js";

/** A queue-bound A/A study on a CPU runner: scores spread wide, as the queue's draining makes them. */
function study(): CalibrationFile {
  const scores = [1.69, 0.8, 1.2, 0.6, 1.4];
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
    settings: calibrationSettingsOf(testConfig, 12),
    rounds: scores.map((roundScore) => ({ roundScore, runScores: [roundScore], promptsCompared: 12, unscored: 0, disagreed: 0, medianAgreement: 1 })),
    noise: computeNoiseFloor(scores),
  };
}

describe("describeCalibration", () => {
  it("says when the A/A rounds were queue-bound, why, and the setting that fixes it", () => {
    const why = "the baseline's median time to first token was 183 ms, of which its own prompt processing was 3.9 ms: 97% was waiting in its queue";
    const fix = "set bench.requestIntervalMs to at least 1,200 ms (it is 250 ms), or give the engine more parallel slots, then calibrate again";
    const text = describeCalibration(study(), 0.1, { rounds: 5, first: { why, fix } });
    expect(text).toContain(`warning: 5 of 5 A/A rounds were queue-bound (in the first, ${why}): this floor measures how the baseline's queue drains, not its speed; ${fix}`);
    expect(describeCalibration(study(), 0.1)).not.toContain("queue-bound");
  });
});
