import { ConfigError } from "../vocabulary/config-error.js";
import type { RoundFingerprint } from "./fingerprint-round.js";
import type { RoundConfig } from "./round-config-schema.js";
import { describeValue } from "../vocabulary/describe-value.js";
import type { CardCalibration } from "../calibration/calibration-schema.js";
import type { CalibrationFile } from "../calibration/calibration-schema.js";
import { calibrationSettingsOf, hashBaseline } from "./calibration-settings.js";
import type { CalibrationSource } from "../calibration/fit-calibration.js";
import { describeSettingDifferences } from "../calibration/fit-calibration.js";
import { readCalibration } from "../calibration/read-calibration.js";

/**
 * The baseline's agreement with itself over the file's A/A rounds, as a round's gate uses it; null
 * for a file written before it was measured.
 */
export function selfAgreementOf(rounds: CalibrationFile["rounds"]): CardCalibration["selfAgreement"] {
  if (rounds.some((round) => round.disagreed === undefined)) return null;
  const medians = rounds.map((round) => round.medianAgreement).filter((value): value is number => typeof value === "number");
  return {
    lowestMedianAgreement: medians.length > 0 ? Math.min(...medians) : null,
    mostDisagreed: Math.max(0, ...rounds.map((round) => (round.promptsCompared > 0 ? (round.disagreed ?? 0) / round.promptsCompared : 0))),
  };
}

/** The part of a calibration file a card carries. */
export function calibrationSourceOf(file: CalibrationFile): CalibrationSource {
  return {
    measuredAt: file.measuredAt,
    engine: file.engine,
    runner: file.runner,
    gpu: file.gpu,
    baselineImage: file.baselineImage,
    baselineImageId: file.baselineImageId,
    promptsHash: file.promptsHash,
    settings: file.settings,
    scores: file.rounds.map((round) => round.roundScore),
    selfAgreement: selfAgreementOf(file.rounds),
  };
}

/**
 * The calibration a round names, read and checked against the round before anything starts: a
 * calibration of other settings, prompts or another baseline engine measured another noise, and
 * gating on it would promise what it cannot keep. What only the run knows (the GPU, the pulled
 * image's ID, the runner) is checked on the card, where the app can check it again.
 */
export async function loadRoundCalibration(
  config: RoundConfig,
  configPath: string,
  configDir: string,
  promptCount: number,
  fingerprint: RoundFingerprint,
): Promise<CalibrationFile | null> {
  const path = config.gate.calibration;
  if (!path) return null;
  const file = await readCalibration(path);
  const problems: string[] = [];
  if (file.engine !== config.engine) problems.push(`it is for engine ${describeValue(file.engine)}, this round's is ${describeValue(config.engine)}`);
  if (file.runtime !== config.runtime) problems.push(`it was measured with runtime ${file.runtime}, this round uses ${config.runtime}`);
  if (file.baselineHash !== hashBaseline(config, configDir)) {
    problems.push("the baseline changed since it was measured (its image or build, command, folder or environment)");
  }
  if (file.promptsHash !== fingerprint.promptsHash) problems.push("it was measured on another prompt set");
  problems.push(...describeSettingDifferences(file.settings, calibrationSettingsOf(config, promptCount)));
  if (problems.length > 0) {
    throw ConfigError.fromProblems(
      problems,
      `gate.calibration: ${path} does not fit this round; measure it again with speedgate calibrate --config ${configPath}`,
    );
  }
  return file;
}
