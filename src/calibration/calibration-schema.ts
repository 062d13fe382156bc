import { z } from "zod";
import { MIN_CALIBRATION_ROUNDS } from "../scoring/noise-floor.js";
import { MAX_SCENARIOS, SCENARIO_NAME } from "../vocabulary/scenario-name.js";

/*
 * A calibration file is the record of an A/A study (`speedgate calibrate`): the baseline scored
 * against itself N rounds on one runner. A round names it with gate.calibration and gates on the
 * noise it measured. It is checked in next to the round config, so it is read as untrusted-ish
 * input like a card: bounded strings and lists, no open-ended objects.
 */

export const CALIBRATION_KIND = "speedgate-calibration";
export const CALIBRATION_SCHEMA_VERSION = 1;

const text = (max: number) => z.string().max(max);
const count = z.number().int().min(0).max(10_000_000);

/** The round settings that change how noisy a round is; a calibration fits only a round with the same ones. */
export const calibrationSettingsSchema = z.object({
  requestIntervalMs: z.number().min(0),
  arrival: z.enum(["fixed", "poisson"]),
  // Files from before bench.concurrency measured an open loop.
  concurrency: z.number().int().min(1).nullable().default(null),
  seed: z.number().int().min(0),
  thinking: z.boolean(),
  contextLimit: count,
  maxTokens: count,
  tolerance: z.number().gt(0).lte(1),
  model: text(256),
  runs: z.number().int().min(1).max(100),
  // Files and cards from before these settings measured what their defaults name: the baseline first in every run, a cold client.
  order: z.enum(["counterbalanced", "baseline-first"]).default("baseline-first"),
  clientWarmup: z.boolean().default(false),
  warmupRequests: count,
  prompts: count,
});

export const calibrationRoundSchema = z.object({
  roundScore: z.number().finite().gt(0),
  runScores: z.array(z.number().finite().min(0).nullable()).max(100),
  promptsCompared: count,
  unscored: count,
  /**
   * The baseline against itself: prompts it cut short (below tolerance) or parted from its own answer
   * (diverged), and the median agreement. Absent in files from before they were measured.
   */
  disagreed: count.optional(),
  medianAgreement: z.number().min(0).max(1).nullable().optional(),
  /**
   * The candidate seat's answers (the baseline again) that none of the baseline seat's answers explains, of those compared: the
   * engine's own rate of odd answers, which the unexplained rule allows for. Absent in files from before it was counted.
   */
  unexplainedAnswers: z.object({ count, compared: count }).optional(),
});

/**
 * The baseline's agreement with itself over a calibration's A/A rounds, as a round's gate uses it:
 * the lowest median agreement and the largest share of compared prompts cut or parted in one round.
 * Derived from the file's rounds when a card copies the calibration (selfAgreementOf).
 */
export const calibrationSelfAgreementSchema = z.object({
  lowestMedianAgreement: z.number().min(0).max(1).nullable(),
  mostDisagreed: z.number().min(0).max(1),
  /** Over the A/A rounds, the candidate seat's unexplained answers of those compared; absent or null when not counted in every round. */
  unexplained: z.object({ count, compared: count }).nullable().optional(),
});

const noiseSchema = z.object({ meanLog: z.number(), sdLog: z.number(), floor: z.number(), detectableSpeedup: z.number() });
const roundsSchema = z.array(calibrationRoundSchema).min(MIN_CALIBRATION_ROUNDS).max(1_000);
const scenarioNameSchema = z.string().regex(SCENARIO_NAME);

/**
 * One scenario's A/A study, from the same A/A rounds as the file's: its prompts, its merged settings,
 * its round scores. A round with scenarios gates each scenario on the study of its name, since each
 * workload (its pace, its batch, its place on the engine's one start) has a noise of its own.
 */
export const calibrationScenarioSchema = z.object({
  name: scenarioNameSchema,
  promptsHash: text(128),
  settings: calibrationSettingsSchema,
  rounds: roundsSchema,
  /** Derived from the round scores when the file was written; readers recompute it and never trust this copy. */
  noise: noiseSchema,
});

export const calibrationFileSchema = z.object({
  kind: z.literal(CALIBRATION_KIND),
  schemaVersion: z.literal(CALIBRATION_SCHEMA_VERSION),
  speedgateVersion: text(64),
  measuredAt: z.iso.datetime(),
  engine: text(128),
  runtime: z.enum(["docker", "process"]),
  runner: text(256).nullable(),
  gpu: text(512).nullable(),
  baselineImage: text(512).nullable(),
  baselineImageId: text(256).nullable(),
  /** sha256 of the baseline's definition (image or build, command, environment): another engine is another noise. */
  baselineHash: text(128),
  promptsHash: text(128),
  settings: calibrationSettingsSchema,
  rounds: roundsSchema,
  /** Derived from the round scores when the file was written; readers recompute it and never trust this copy. */
  noise: noiseSchema,
  /**
   * A study per scenario, in the round config's order, when the calibrated round had scenarios; the top
   * level is then the first scenario's (the card's headline), so a reader of the top level alone still
   * reads one whole study. Absent in files of rounds without scenarios and files from before scenarios.
   */
  scenarios: z
    .array(calibrationScenarioSchema)
    .min(1)
    .max(MAX_SCENARIOS)
    .refine((scenarios) => new Set(scenarios.map((scenario) => scenario.name)).size === scenarios.length, {
      error: "expected one study per scenario name; calibrate again with speedgate calibrate",
    })
    .optional(),
});

export type CalibrationFile = z.infer<typeof calibrationFileSchema>;
export type CalibrationSettings = z.infer<typeof calibrationSettingsSchema>;
export type CalibrationScenario = z.infer<typeof calibrationScenarioSchema>;

/** The A/A study the gate used, copied from the calibration file; the floor and the fit are recomputed by every reader. */
export const cardCalibrationSchema = z.object({
  measuredAt: text(64),
  engine: text(128),
  runner: text(256).nullable(),
  gpu: text(512).nullable(),
  baselineImage: text(512).nullable(),
  baselineImageId: text(256).nullable(),
  promptsHash: text(128),
  settings: calibrationSettingsSchema,
  /** The A/A round scores. */
  scores: z.array(z.number().finite().gt(0)).min(MIN_CALIBRATION_ROUNDS).max(1_000),
  noiseFloor: z.number().finite().min(0),
  detectableSpeedup: z.number().finite(),
  /** The baseline's agreement with itself in the A/A rounds; absent in calibrations from before it was measured. */
  selfAgreement: calibrationSelfAgreementSchema.nullable().optional(),
  /**
   * On a scenario's card: the scenario, and whether the file held a study of that name. Without one the
   * copy is the file's top-level study, which is not this scenario's, and the fit keeps the gate closed.
   * Absent on cards of rounds without scenarios and cards from before scenarios had studies of their own.
   */
  scenario: z.object({ name: scenarioNameSchema, studied: z.boolean() }).optional(),
  /** Why it does not fit this round; any one keeps the gate closed. */
  problems: z.array(text(1_000)).max(20),
  /** Differences that do not keep the gate closed, such as another runner with the same GPU. */
  notes: z.array(text(1_000)).max(20),
});

export type CardCalibration = z.infer<typeof cardCalibrationSchema>;
