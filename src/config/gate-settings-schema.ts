import { z } from "zod";
import { enumOf, integerIn, nonEmptyString, positiveNumber, shareSchema, wholeShareSchema } from "./config-field-kinds.js";
import {
  DEFAULT_MAX_UNEXPLAINED,
  DEFAULT_MAX_UNSCORED,
  DEFAULT_MIN_AGREEMENT,
  DEFAULT_MIN_PROMPTS,
  GATE_MODES,
  defaultGateMode,
} from "../scoring/evaluate-gate.js";
import { SCENARIO_ROLES } from "../scoring/scenario-role.js";
import { DEFAULT_MAX_REGRESSED_PROMPTS, DEFAULT_REGRESSION_FLOOR } from "../scoring/judge-regression.js";
import { DEFAULT_MAX_QUALITY_DROP } from "../scoring/judge-quality.js";

/** The gate's limits, shared with the repository config (.github/speedgate.yml), which sets them for the app's re-gate. */
export const maxUnscoredSchema = shareSchema("expected a share of prompts in [0, 1), such as 0.1").default(DEFAULT_MAX_UNSCORED);
export const minPromptsSchema = integerIn(1, 10_000_000, "expected a whole number of prompts, 1 or more").default(DEFAULT_MIN_PROMPTS);
export const minAgreementSchema = wholeShareSchema("expected a share of the compared length in [0, 1], such as 1 or 0.9 (0: off)").default(
  DEFAULT_MIN_AGREEMENT,
);
export const maxUnexplainedSchema = shareSchema("expected a share of prompts in [0, 1), such as 0 or 0.05").default(
  DEFAULT_MAX_UNEXPLAINED,
);

const regressionFloorMessage = "expected a speedup in (0, 1], such as 0.8";
/** A prompt scoring under this is regressed; the round's E2E p90 may be at most 1/this and its throughput at least this. */
export const regressionFloorSchema = z
  .number({ error: regressionFloorMessage })
  .gt(0, { error: regressionFloorMessage })
  .lte(1, { error: regressionFloorMessage })
  .default(DEFAULT_REGRESSION_FLOOR);
export const maxRegressedPromptsSchema = shareSchema("expected a share of prompts in [0, 1), such as 0.1").default(
  DEFAULT_MAX_REGRESSED_PROMPTS,
);

const minRoundScoreSchema = positiveNumber("expected a speedup greater than 0, such as 1.0");

/**
 * gate.answers: how an answer that no baseline answer explains is judged. `speed` (the default, absent):
 * it is a possible cheat, timed only up to where it parts and held to the agreement rules. `quality`
 * (with the round's quality:): it is timed at equal length like any other, and the question set decides
 * whether the changed answers are worse. Shared with the repository config, where it is the maintainers' opt-in.
 */
export const answersSchema = enumOf(["speed", "quality"] as const);

/** gate.quality: the smallest drop in accuracy (a share: 0.02 is 2 points) that fails the gate when it is significant. */
export const gateQualitySchema = z.strictObject(
  {
    maxDrop: z
      .number({ error: "expected a share of accuracy in [0, 1), such as 0.02 (2 points)" })
      .min(0, { error: "expected a share of accuracy in [0, 1), such as 0.02 (2 points)" })
      .lt(1, { error: "expected a share of accuracy in [0, 1), such as 0.02 (2 points)" })
      .default(DEFAULT_MAX_QUALITY_DROP),
  },
  { error: "expected an object such as { maxDrop: 0.02 }" },
);

export const gateSchema = z.strictObject(
  {
    minRoundScore: minRoundScoreSchema,
    // A run budget is decided by the sequential rule; a number of runs by the interval's low end, or with a calibration the noise floor.
    use: enumOf(GATE_MODES).optional(),
    maxUnscored: maxUnscoredSchema,
    minPrompts: minPromptsSchema,
    minAgreement: minAgreementSchema,
    maxUnexplained: maxUnexplainedSchema,
    regressionFloor: regressionFloorSchema,
    maxRegressedPrompts: maxRegressedPromptsSchema,
    calibration: nonEmptyString("expected the path of a calibration file written by speedgate calibrate").optional(),
    // Both absent unless set: a config without them hashes as it did before they existed.
    answers: answersSchema.optional(),
    quality: gateQualitySchema.optional(),
    // With scenarios: the floor no scenario's interval may lie wholly below, whatever each scenario's own bar says.
    maxRegression: z
      .number({ error: "expected a speedup in (0, 1], such as 0.97" })
      .gt(0, { error: "expected a speedup in (0, 1], such as 0.97" })
      .lte(1, { error: "expected a speedup in (0, 1], such as 0.97" })
      .optional(),
  },
  { error: "expected an object such as { minRoundScore: 1.0 }" },
);

/** The round's gate as parsed; `use` is filled in by the round (fillGateUse), which knows whether bench.runs is a budget. */
export type RoundGateSettings = z.infer<typeof gateSchema>;

/** The gate with `use` filled in: what the config left out is the default for its runs (defaultGateMode). */
export function fillGateUse<T extends { gate: RoundGateSettings; bench: { runs: number | object } }>(
  config: T,
): T & { gate: T["gate"] & { use: NonNullable<RoundGateSettings["use"]> } } {
  const use = config.gate.use ?? defaultGateMode(config.gate.calibration !== undefined, typeof config.bench.runs === "object");
  return { ...config, gate: { ...config.gate, use } };
}

/*
 * A scenario's gate overrides some of the round's bar: the limits that judge its own prompts. The
 * calibration is the round's (an A/A study of one config), and maxRegression is the whole round's.
 * The app's repository config takes the same fields per scenario name (repo-config-schema.ts).
 */
export const scenarioGateSchema = z.strictObject(
  {
    minRoundScore: minRoundScoreSchema.optional(),
    use: enumOf(GATE_MODES).optional(),
    maxUnscored: maxUnscoredSchema.unwrap().optional(),
    minPrompts: minPromptsSchema.unwrap().optional(),
    minAgreement: minAgreementSchema.unwrap().optional(),
    maxUnexplained: maxUnexplainedSchema.unwrap().optional(),
    regressionFloor: regressionFloorSchema.unwrap().optional(),
    maxRegressedPrompts: maxRegressedPromptsSchema.unwrap().optional(),
    answers: answersSchema.optional(),
    // Left out: target (minRoundScore is its bar). A guard must not be surely slower than 1 − margin (evaluate-gate.ts).
    role: enumOf(SCENARIO_ROLES).optional(),
    margin: z
      .number({ error: "expected a share of speed in (0, 1), such as 0.05 (a guard may be up to 5% slower)" })
      .gt(0, { error: "expected a share of speed in (0, 1), such as 0.05 (a guard may be up to 5% slower)" })
      .lt(1, { error: "expected a share of speed in (0, 1), such as 0.05 (a guard may be up to 5% slower)" })
      .optional(),
  },
  {
    error:
      "expected an object with some of role, minRoundScore, margin, use, maxUnscored, minPrompts, minAgreement, maxUnexplained, " +
      "regressionFloor, maxRegressedPrompts and answers",
  },
);
