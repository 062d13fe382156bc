import { dirname } from "node:path";
import type { LoadedRound } from "../config/load-round-config.js";
import type { RoundConfig } from "../config/round-config-schema.js";
import type { EngineRuntime } from "../engine/engine-runtime.js";
import type { Logger } from "../logger.js";
import { resolveRoundEngines } from "../config/resolve-round-engines.js";
import { fingerprintRound } from "../config/fingerprint-round.js";
import type { RoundProgressEvent } from "./round-progress.js";
import { runRound } from "./run-round.js";
import { describeVerdict } from "../scorecard/render/describe-card.js";
import type { ScenarioCard, Scorecard } from "../scorecard/scorecard-schema.js";
import { computeNoiseFloor } from "../scoring/noise-floor.js";
import { SPEEDGATE_VERSION } from "../version.js";
import { CALIBRATION_KIND, CALIBRATION_SCHEMA_VERSION, type CalibrationFile } from "../calibration/calibration-schema.js";
import { calibrationSettingsOf, hashBaseline } from "../config/calibration-settings.js";
import { calibrationRunsOf } from "../config/run-plan.js";

/** An A/A round that could not be scored: the study stops, since an engine that fails against itself has no noise to measure. */
export class CalibrationRoundError extends Error {
  constructor(
    message: string,
    readonly card: Scorecard,
  ) {
    super(message);
    this.name = "CalibrationRoundError";
  }
}

export interface RunCalibrationOptions {
  round: LoadedRound;
  /** A/A rounds to run. */
  rounds: number;
  logger: Logger;
  signal: AbortSignal;
  /** Each A/A round's run id is this with the round's number. */
  runId: string;
  onRoundDone?: (index: number, card: Scorecard) => void;
  onProgress?: (index: number, event: RoundProgressEvent) => void;
  /** A runtime per round (tests); by default the one the config asks for. */
  runtimeFor?: (round: LoadedRound) => EngineRuntime;
  now?: Date;
}

/**
 * The round with the baseline in both seats: no patch, no build, the candidate inheriting the
 * baseline's command, environment and folder, and no calibration of its own to gate on. The baseline
 * keeps the folder `run` starts it in (resolveRoundEngines): without baseline.cwd a process baseline
 * runs in candidate.sourceDir, which the A/A candidate no longer names. Scoring commits, the head is the base.
 * Each scenario's merged config
 * is made the same way, since its card is built from it.
 */
export function aaRound(round: LoadedRound): LoadedRound {
  const { cwd } = resolveRoundEngines(round.config, round.configPath, { commits: round.commits != null }).baseline;
  const aaConfig = (config: RoundConfig): RoundConfig => {
    const { calibration: _calibration, ...gate } = config.gate;
    const baseline = cwd === null ? config.baseline : { ...config.baseline, cwd };
    // A budget's A/A rounds run its min: the sequential rule reads their run-to-run spread, which any number of runs measures.
    const bench = { ...config.bench, runs: calibrationRunsOf(config.bench.runs) };
    return {
      ...config,
      baseline,
      candidate: { postPatch: [], trusted: config.candidate.trusted },
      bench,
      gate: { ...gate, use: "round-score" },
    };
  };
  return {
    ...round,
    config: aaConfig(round.config),
    ...(round.scenarios ? { scenarios: round.scenarios.map((scenario) => ({ ...scenario, config: aaConfig(scenario.config) })) } : {}),
    patch: null,
    calibration: null,
    // Scoring commits (calibrate --base): the base in both seats, each engine from a worktree of it as run --base starts them.
    ...(round.commits
      ? { commits: { ...round.commits, head: round.commits.base, headRef: round.commits.baseRef, mergeBase: round.commits.base } }
      : {}),
  };
}

/** The one value every A/A round must agree on (the GPU, the baseline image), or why they do not. */
function agreed(cards: readonly Scorecard[], pick: (card: Scorecard) => string | null, what: string): string | null {
  const values = [...new Set(cards.map(pick))];
  if (values.length > 1)
    throw new Error(`the A/A rounds of one calibration ran on different ${what}s (${values.join(", ")}); calibrate again on one runner`);
  return values[0] ?? null;
}

/** One workload's cards of every A/A round as a study's rounds and noise. */
function studyOf(cards: readonly ScenarioCard[]): Pick<CalibrationFile, "rounds" | "noise"> {
  return {
    rounds: cards.map((card) => ({
      roundScore: card.roundScore as number,
      runScores: card.runs.scores,
      promptsCompared: card.promptsTotal - card.excluded,
      unscored: card.unscored,
      // The baseline against itself: what its own batch nondeterminism cuts short or parts, which a round's agreement rules allow.
      disagreed: card.belowTolerance + card.diverged,
      medianAgreement: card.medianAgreement ?? null,
      // How often the same engine gives an answer none of its other seat's answers explains: the unexplained rule's own rate.
      ...(card.unexplainedAnswers
        ? { unexplainedAnswers: { count: card.unexplainedAnswers.count, compared: card.unexplainedAnswers.compared } }
        : {}),
    })),
    noise: computeNoiseFloor(cards.map((card) => card.roundScore as number)),
  };
}

/**
 * The workload's card of an A/A round that could not be scored (the round's, or a scenario's), named;
 * null when every one has a score. An engine failure fails every scenario, so it is named by the
 * scenario the engine failed in, if it failed in one.
 */
function findUnscored(card: Scorecard): { card: ScenarioCard; scenario: string | null } | null {
  if (card.failure) {
    const failedIn = card.scenarios?.find(({ name }) => name === card.failure?.scenario);
    return { card: failedIn?.card ?? card, scenario: failedIn?.name ?? null };
  }
  const unscored = (card.scenarios ?? [{ name: null, card }]).find(({ card: one }) => one.roundScore === null || one.roundScore <= 0);
  return unscored ? { card: unscored.card, scenario: unscored.name } : null;
}

/**
 * `speedgate calibrate`: an A/A study on this runner. The baseline is scored against itself
 * `rounds` times with the round's settings (its prompts, pace and bench.runs), and the spread of
 * those round scores is the noise an unchanged engine shows here, which a round that names the
 * file must clear to pass. Every A/A round must give a score; one that fails ends the study. A round
 * with scenarios gives a study per scenario from the same A/A rounds (each scenario's own card), and
 * the first scenario's, the card's headline, is also the file's top level.
 */
export async function runCalibration(options: RunCalibrationOptions): Promise<CalibrationFile> {
  const { round } = options;
  const aa = aaRound(round);
  const cards: Scorecard[] = [];
  for (let index = 0; index < options.rounds; index++) {
    const card = await runRound({
      round: aa,
      logger: options.logger,
      signal: options.signal,
      runId: `${options.runId}-aa${index + 1}`,
      ...(options.runtimeFor ? { runtime: options.runtimeFor(aa) } : {}),
      onProgress: (event) => options.onProgress?.(index, event),
    });
    const unscored = findUnscored(card);
    if (unscored) {
      const where = unscored.scenario === null ? "" : ` in scenario ${unscored.scenario}`;
      throw new CalibrationRoundError(
        `A/A round ${index + 1} of ${options.rounds} has no score${where}, so the runner's noise cannot be measured: ` +
          `${describeVerdict(unscored.card).headline}`,
        card,
      );
    }
    cards.push(card);
    options.onRoundDone?.(index, card);
  }
  const { config } = round;
  const configDir = dirname(round.configPath);
  const scenarios = (round.scenarios ?? []).map((scenario, index) => ({
    name: scenario.name,
    promptsHash: scenario.fingerprint.promptsHash,
    settings: calibrationSettingsOf(scenario.config, scenario.prompts.length),
    ...studyOf(cards.map((card) => card.scenarios?.[index]?.card ?? missingScenarioCard(scenario.name))),
  }));
  const headline = scenarios[0] ?? {
    promptsHash: (round.fingerprint ?? fingerprintRound(config, configDir, round.prompts)).promptsHash,
    settings: calibrationSettingsOf(config, round.prompts.length),
    ...studyOf(cards),
  };
  return {
    kind: CALIBRATION_KIND,
    schemaVersion: CALIBRATION_SCHEMA_VERSION,
    speedgateVersion: SPEEDGATE_VERSION,
    measuredAt: (options.now ?? new Date()).toISOString(),
    engine: config.engine,
    runtime: config.runtime,
    runner: agreed(cards, (card) => card.provenance.runner, "runner"),
    gpu: agreed(cards, (card) => card.provenance.gpu, "GPU"),
    baselineImage: config.baseline.image ?? null,
    // A pulled tag must not move during the study; a locally built baseline may get a new ID per build.
    baselineImageId: config.baseline.image
      ? agreed(cards, (card) => card.provenance.baselineImageId, "baseline image")
      : (cards[0]?.provenance.baselineImageId ?? null),
    baselineHash: hashBaseline(config, configDir),
    promptsHash: headline.promptsHash,
    settings: headline.settings,
    rounds: headline.rounds,
    noise: headline.noise,
    ...(scenarios.length > 0 ? { scenarios } : {}),
  };
}

function missingScenarioCard(name: string): never {
  throw new Error(`an A/A round's card lacks scenario ${name}, which every round with that config serves`);
}
