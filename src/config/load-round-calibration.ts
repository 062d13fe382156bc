import { ConfigError } from "../vocabulary/config-error.js";
import type { RoundFingerprint } from "./fingerprint-round.js";
import type { RoundConfig } from "./round-config-schema.js";
import { describeValue } from "../vocabulary/describe-value.js";
import type { CardCalibration } from "../calibration/calibration-schema.js";
import type { CalibrationFile, CalibrationSettings } from "../calibration/calibration-schema.js";
import type { LoadedScenario } from "./load-round-scenarios.js";
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
  // Pooled over the A/A rounds, and only when every round counted them: a rate from some rounds would pass for all.
  const counted = rounds.every((round) => round.unexplainedAnswers !== undefined);
  const unexplained = counted
    ? rounds.reduce(
        (sum, round) => ({
          count: sum.count + (round.unexplainedAnswers?.count ?? 0),
          compared: sum.compared + (round.unexplainedAnswers?.compared ?? 0),
        }),
        { count: 0, compared: 0 },
      )
    : null;
  return {
    lowestMedianAgreement: medians.length > 0 ? Math.min(...medians) : null,
    mostDisagreed: Math.max(0, ...rounds.map((round) => (round.promptsCompared > 0 ? (round.disagreed ?? 0) / round.promptsCompared : 0))),
    ...(unexplained ? { unexplained } : {}),
  };
}

/**
 * The part of a calibration file a card carries. A scenario's card (`scenario` is its name) carries the
 * study of that name; a scenario the file has none of carries the top-level study marked unstudied,
 * which the fit turns into a problem that keeps its gate closed, on the runner and on every re-gate.
 */
export function calibrationSourceOf(file: CalibrationFile, scenario: string | null = null): CalibrationSource {
  const own = scenario === null ? undefined : file.scenarios?.find((entry) => entry.name === scenario);
  const study = own ?? file;
  return {
    measuredAt: file.measuredAt,
    engine: file.engine,
    runner: file.runner,
    gpu: file.gpu,
    baselineImage: file.baselineImage,
    baselineImageId: file.baselineImageId,
    promptsHash: study.promptsHash,
    settings: study.settings,
    scores: study.rounds.map((round) => round.roundScore),
    selfAgreement: selfAgreementOf(study.rounds),
    ...(scenario === null ? {} : { scenario: { name: scenario, studied: own !== undefined } }),
  };
}

/** Why a study does not fit the workload it would gate: another prompt set, other settings. */
function describeStudyMisfit(
  study: Pick<CalibrationFile, "promptsHash" | "settings">,
  promptsHash: string,
  settings: CalibrationSettings,
): string[] {
  const problems: string[] = [];
  if (study.promptsHash !== promptsHash) problems.push("it was measured on another prompt set");
  problems.push(...describeSettingDifferences(study.settings, settings));
  return problems;
}

/**
 * The calibration a round names, read and checked against the round before anything starts: a
 * calibration of other settings, prompts or another baseline engine measured another noise, and
 * gating on it would promise what it cannot keep. What only the run knows (the GPU, the pulled
 * image's ID, the runner) is checked on the card, where the app can check it again. In a round with
 * scenarios each scenario's study is checked against that scenario's prompts and merged settings; a
 * scenario the file has no study of is not refused here but on its card, so the others are judged.
 */
export async function loadRoundCalibration(
  config: RoundConfig,
  configPath: string,
  configDir: string,
  promptCount: number,
  fingerprint: RoundFingerprint,
  scenarios?: readonly LoadedScenario[],
  scoringCommits = false,
): Promise<CalibrationFile | null> {
  const path = config.gate.calibration;
  if (!path) return null;
  const file = await readCalibration(path);
  const problems: string[] = [];
  if (file.engine !== config.engine)
    problems.push(`it is for engine ${describeValue(file.engine)}, this round's is ${describeValue(config.engine)}`);
  if (file.runtime !== config.runtime) problems.push(`it was measured with runtime ${file.runtime}, this round uses ${config.runtime}`);
  if (file.baselineHash !== hashBaseline(config, configDir)) {
    problems.push("the baseline changed since it was measured (its image or build, command, folder or environment)");
  }
  if (!scenarios) problems.push(...describeStudyMisfit(file, fingerprint.promptsHash, calibrationSettingsOf(config, promptCount)));
  // With scenarios each is gated on the study of its name; one the file has none of is left to its card, whose gate it keeps closed.
  for (const scenario of scenarios ?? []) {
    const study = file.scenarios?.find((entry) => entry.name === scenario.name);
    if (!study) continue;
    const misfit = describeStudyMisfit(
      study,
      scenario.fingerprint.promptsHash,
      calibrationSettingsOf(scenario.config, scenario.prompts.length),
    );
    problems.push(...misfit.map((problem) => `scenario ${scenario.name}: ${problem}`));
  }
  if (problems.length > 0) {
    throw ConfigError.fromProblems(
      problems,
      // The command that measures what this round runs: with --base, the engines' folders are the repository's.
      `gate.calibration: ${path} does not fit this round; measure it again with speedgate calibrate --config ${configPath}` +
        (scoringCommits ? " --base <the base you run with>" : ""),
    );
  }
  return file;
}
