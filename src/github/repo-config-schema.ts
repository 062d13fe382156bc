import { z } from "zod";
import { formatConfigIssues } from "../vocabulary/format-config-issues.js";
import {
  answersSchema,
  gateQualitySchema,
  maxRegressedPromptsSchema,
  maxUnexplainedSchema,
  maxUnscoredSchema,
  minAgreementSchema,
  minPromptsSchema,
  regressionFloorSchema,
  scenarioGateSchema,
} from "../config/gate-settings-schema.js";
import { DEFAULT_MAX_REGRESSED_PROMPTS, DEFAULT_REGRESSION_FLOOR } from "../scoring/judge-regression.js";
import {
  DEFAULT_MAX_UNEXPLAINED,
  DEFAULT_MAX_UNSCORED,
  DEFAULT_MIN_AGREEMENT,
  DEFAULT_MIN_PROMPTS,
  GATE_MODES,
} from "../scoring/evaluate-gate.js";
import { MAX_SCENARIOS, SCENARIO_NAME } from "../scorecard/scorecard-schema.js";
import { appWatchSchema } from "../config/watch-settings-schema.js";

/*
 * `.github/speedgate.yml` on the repository's default branch: how the app gates and who may start
 * a run. Read from the default branch only, so a pull request cannot lower its own bar.
 */

export const PERMISSION_LEVELS = ["read", "triage", "write", "maintain", "admin"] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];
/** The lowest `rescore.permission` a config may set: anyone below it is refused before the config is read. */
export const LOWEST_RESCORE_PERMISSION = "triage" satisfies PermissionLevel;

const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}` });

/** The round config the examples keep on the default branch (examples/engine-repository/.github/speedgate/). */
export const DEFAULT_ROUND_CONFIG_PATH = ".github/speedgate/round.yaml";
const ROUND_CONFIG_MESSAGE =
  "expected the round config's path in the repository, such as .github/speedgate/round.yaml (null: the bars of this file alone)";

const minRoundScoreSchema = z
  .number({ error: "expected a speedup greater than 0, such as 1.0" })
  .gt(0, { error: "expected a speedup greater than 0, such as 1.0" });

/*
 * One scenario's bar, over the repository's `gate` for that scenario only: the fields a round config's
 * scenario may override, each optional, none defaulted, so a field left out is the repository's `gate` value.
 */
export type RepoScenarioGate = z.infer<typeof scenarioGateSchema>;

/*
 * Keyed by scenario name, as the round config's `scenarios[].name` spells it. A repository that lists
 * scenarios here requires each of them in every card: a card is the pull request's artifact, so one
 * that left out a failing scenario (or all of them) must not pass for lacking it.
 */
const scenarioGatesSchema = z
  .record(z.string().regex(SCENARIO_NAME), scenarioGateSchema, {
    // A bad name is reported at its own path, with its bar as the value given: the message says it is the name.
    error: (issue) =>
      issue.code === "invalid_key"
        ? "not a scenario name: a key must be spelled as a round config's scenarios[].name (a letter or digit, then up to 63 letters, " +
          "digits, spaces or ._+-)"
        : "expected a mapping of scenario names to bars, such as { decode-c1: { minRoundScore: 1.0 } }",
  })
  .refine((scenarios) => Object.keys(scenarios).length > 0, {
    error: "expected at least one scenario, such as { decode-c1: { minRoundScore: 1.0 } } (leave scenarios out for none)",
  })
  .refine((scenarios) => Object.keys(scenarios).length <= MAX_SCENARIOS, {
    error: `expected at most ${MAX_SCENARIOS} scenarios, as many as a round may have`,
  });

export const repoConfigSchema = z.strictObject(
  {
    workflow: z
      .string({ error: "expected the scoring workflow's file name, such as speedgate.yml" })
      .regex(/^[\w.-]+\.ya?ml$/, { error: "expected the scoring workflow's file name, such as speedgate.yml" })
      .default("speedgate.yml"),
    gate: z
      .strictObject(
        {
          minRoundScore: minRoundScoreSchema.default(1.0),
          // Left out: the round's rule (noise-floor with a calibration on the card, else interval-low).
          use: enumOf(GATE_MODES).optional(),
          maxUnscored: maxUnscoredSchema,
          minPrompts: minPromptsSchema,
          minAgreement: minAgreementSchema,
          maxUnexplained: maxUnexplainedSchema,
          regressionFloor: regressionFloorSchema,
          maxRegressedPrompts: maxRegressedPromptsSchema,
          // Left out: speed. Judging changed answers by the card's question set is the maintainers' opt-in, never the card's.
          answers: answersSchema.optional(),
          // Left out: the default gate.quality.maxDrop (2 points), whatever the card's round config set.
          quality: gateQualitySchema.optional(),
          // Left out: the limit the card's round config set, if any (rounds with scenarios only).
          maxRegression: z
            .number({ error: "expected a speedup in (0, 1], such as 0.97" })
            .gt(0, { error: "expected a speedup in (0, 1], such as 0.97" })
            .lte(1, { error: "expected a speedup in (0, 1], such as 0.97" })
            .optional(),
          // Left out: every scenario under the gate above, and no scenario required.
          scenarios: scenarioGatesSchema.optional(),
        },
        { error: "expected an object such as { minRoundScore: 1.05 }" },
      )
      .default({
        minRoundScore: 1.0,
        maxUnscored: DEFAULT_MAX_UNSCORED,
        minPrompts: DEFAULT_MIN_PROMPTS,
        minAgreement: DEFAULT_MIN_AGREEMENT,
        maxUnexplained: DEFAULT_MAX_UNEXPLAINED,
        regressionFloor: DEFAULT_REGRESSION_FLOOR,
        maxRegressedPrompts: DEFAULT_MAX_REGRESSED_PROMPTS,
      }),
    // Where the round config is on the default branch: each scenario's bar (role, margin, minRoundScore, use) is read
    // from it, under gate.scenarios (src/github/decide-scenario-bar.ts). null: the app's settings alone.
    roundConfig: z
      .string({ error: ROUND_CONFIG_MESSAGE })
      .regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w./-]+\.ya?ml$/, { error: ROUND_CONFIG_MESSAGE })
      .nullable()
      .default(DEFAULT_ROUND_CONFIG_PATH),
    trigger: enumOf(["command", "auto"]).default("command"),
    rescore: z
      .strictObject(
        // "read" is refused on purpose: on a public repository everyone reads, so it would let anyone start GPU runs.
        { permission: enumOf([LOWEST_RESCORE_PERMISSION, "write", "maintain", "admin"]).default("write") },
        { error: "expected an object such as { permission: write }" },
      )
      .default({ permission: "write" }),
    // For competitions where every pull request is a submission: each open pull request's round score (the
    // median of all its runs, every commit's), kept up to date by the app in one pinned issue.
    leaderboard: z.boolean({ error: "expected true or false" }).default(false),
    // Watching main (docs/watching-main.md): the watch workflow's cards go to main's series, a drift is bisected on the
    // runners. Left out: the app reads no watch workflow (the workflow may still run the CLI or the action on its own).
    watch: appWatchSchema.optional(),
  },
  { error: "expected a YAML mapping with workflow, gate, roundConfig, trigger, rescore, leaderboard and watch" },
);

export type RepoConfig = z.infer<typeof repoConfigSchema>;

export const DEFAULT_REPO_CONFIG: RepoConfig = repoConfigSchema.parse({});

export type RepoConfigResult = { ok: true; config: RepoConfig } | { ok: false; problems: string[] };

/** A missing file (null) means the defaults; anything else must validate. */
export function parseRepoConfig(value: unknown): RepoConfigResult {
  if (value === null || value === undefined) return { ok: true, config: DEFAULT_REPO_CONFIG };
  const parsed = repoConfigSchema.safeParse(value);
  if (parsed.success) return { ok: true, config: parsed.data };
  return { ok: false, problems: formatConfigIssues(parsed.error.issues, value, repoConfigSchema).slice(0, 20) };
}

/** Whether a role from the collaborator permission endpoint reaches the lowest level the config allows. */
export function permissionReaches(role: string, lowest: PermissionLevel): boolean {
  const have = PERMISSION_LEVELS.indexOf(role as PermissionLevel);
  return have >= 0 && have >= PERMISSION_LEVELS.indexOf(lowest);
}
