import { z } from "zod";
import { DEFAULT_MAX_UNSCORED, DEFAULT_MIN_PROMPTS, GATE_MODES } from "../scoring/evaluate-gate.js";

/*
 * Every field carries the sentence a user reads when it is wrong ("expected …"); the formatter adds
 * the field's path and the value that was given. Keeping the expectation next to the field means a
 * new field cannot be added without saying what it accepts.
 */

const nonEmptyString = (expected = "a non-empty string") =>
  z.string({ error: expected }).min(1, { error: expected });

const integerIn = (min: number, max: number, expected: string) =>
  z
    .number({ error: expected })
    .int({ error: expected })
    .min(min, { error: expected })
    .max(max, { error: expected });

const positiveNumber = (expected: string) => z.number({ error: expected }).gt(0, { error: expected });

const boolean = () => z.boolean({ error: "expected true or false" });

const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}` });

const commandSchema = z
  .array(nonEmptyString("expected each argument to be a non-empty string"), {
    error: 'expected a list of arguments, such as [python3, -m, sglang.launch_server, --port, "{port}"]',
  })
  .min(1, { error: "expected at least the program to run" });

const envSchema = z.record(z.string(), z.string({ error: "expected each value to be a string" }), {
  error: "expected a map of variable names to string values",
});

const buildSpecSchema = z.strictObject(
  {
    context: nonEmptyString("expected the path of a build context folder"),
    dockerfile: nonEmptyString("expected a Dockerfile path relative to the context").default("Dockerfile"),
    args: z.record(z.string(), z.string({ error: "expected each build arg to be a string" })).default({}),
  },
  { error: "expected an object with context, and optionally dockerfile and args" },
);

const healthSchema = z.strictObject(
  {
    path: z
      .string({ error: "expected a URL path starting with /" })
      .startsWith("/", { error: "expected a URL path starting with /" })
      .default("/health"),
    timeoutS: positiveNumber("expected a number of seconds greater than 0").default(1200),
    intervalMs: integerIn(10, 60_000, "expected a whole number of milliseconds from 10 to 60000").default(500),
  },
  { error: "expected an object such as { path: /health, timeoutS: 1200 }" },
);

const baselineSchema = z.strictObject(
  {
    image: nonEmptyString("expected an image reference such as lmsysorg/sglang:v0.5.5").optional(),
    build: buildSpecSchema.optional(),
    command: commandSchema.optional(),
    cwd: nonEmptyString("expected a folder path").optional(),
    env: envSchema.default({}),
  },
  { error: "expected an object with image, build or command" },
);

const candidateSchema = z.strictObject(
  {
    patch: nonEmptyString("expected the path of a patch file").optional(),
    sourceDir: nonEmptyString("expected the folder the patch applies in").optional(),
    command: commandSchema.optional(),
    postPatch: z
      .array(commandSchema, { error: "expected a list of commands, each a list of arguments" })
      .default([]),
    build: buildSpecSchema.optional(),
    env: envSchema.optional(),
  },
  { error: "expected an object with patch, sourceDir, command, postPatch or build" },
);

const benchSchema = z.strictObject(
  {
    prompts: nonEmptyString("expected the path of a JSONL prompts file"),
    model: nonEmptyString("expected the served model name").default("default"),
    maxTokens: integerIn(1, 1_000_000, "expected a whole number of tokens from 1 to 1000000"),
    requestIntervalMs: z
      .number({ error: "expected a number of milliseconds, 0 or more" })
      .min(0, { error: "expected a number of milliseconds, 0 or more" }),
    arrival: enumOf(["fixed", "poisson"] as const).default("fixed"),
    seed: integerIn(0, 2 ** 31 - 1, "expected a whole number from 0 to 2147483647").default(1),
    thinking: boolean().default(false),
    contextLimit: integerIn(1, 10_000_000, "expected a whole number of tokens from 1 to 10000000"),
    tolerance: z
      .number({ error: "expected a number in (0, 1]" })
      .gt(0, { error: "expected a number in (0, 1]" })
      .lte(1, { error: "expected a number in (0, 1]" }),
    warmupRequests: integerIn(0, 10_000, "expected a whole number from 0 to 10000").default(0),
    // Each run restarts both engines; the interval then covers how much engine starts differ in speed.
    runs: integerIn(1, 100, "expected a whole number of runs from 1 to 100").default(1),
    requestTimeoutS: positiveNumber("expected a number of seconds greater than 0").default(600),
  },
  { error: "expected an object with prompts, maxTokens, requestIntervalMs, contextLimit and tolerance" },
);

/** The gate's limits, shared with the repository config (.github/speedgate.yml), which sets them for the app's re-gate. */
export const maxUnscoredSchema = z
  .number({ error: "expected a share of prompts in [0, 1), such as 0.1" })
  .min(0, { error: "expected a share of prompts in [0, 1), such as 0.1" })
  .lt(1, { error: "expected a share of prompts in [0, 1), such as 0.1" })
  .default(DEFAULT_MAX_UNSCORED);
export const minPromptsSchema = integerIn(1, 10_000_000, "expected a whole number of prompts, 1 or more").default(DEFAULT_MIN_PROMPTS);

const gateSchema = z
  .strictObject(
    {
      minRoundScore: positiveNumber("expected a speedup greater than 0, such as 1.0"),
      // Without a calibration the interval's low end must clear the bar; with one, the noise floor decides.
      use: enumOf(GATE_MODES).optional(),
      maxUnscored: maxUnscoredSchema,
      minPrompts: minPromptsSchema,
      calibration: nonEmptyString("expected the path of a calibration file written by speedgate calibrate").optional(),
    },
    { error: "expected an object such as { minRoundScore: 1.0 }" },
  )
  .transform((gate) => ({ ...gate, use: gate.use ?? (gate.calibration ? "noise-floor" : "interval-low") }) as const);

const gpusSchema = z.union(
  [
    z.literal("all"),
    z.number().int().min(1),
    z.array(z.string().min(1)).min(1),
  ],
  { error: 'expected "all", a GPU count such as 2, or a list of device ids such as ["0", "1"]' },
);

const ulimitSchema = z.strictObject(
  {
    name: nonEmptyString("expected a ulimit name such as memlock"),
    soft: z.number({ error: "expected a whole number, -1 for unlimited" }).int(),
    hard: z.number({ error: "expected a whole number, -1 for unlimited" }).int(),
  },
  { error: "expected an object with name, soft and hard" },
);

const dockerSchema = z.strictObject(
  {
    gpus: gpusSchema.optional(),
    shmSize: z
      .string({ error: 'expected a size such as "16g", "512m"' })
      .regex(/^\d+(\.\d+)?[bkmg]?$/i, { error: 'expected a size such as "16g", "512m"' })
      .default("16g"),
    memory: z
      .string({ error: 'expected a size such as "64g"' })
      .regex(/^\d+(\.\d+)?[bkmg]?$/i, { error: 'expected a size such as "64g"' })
      .optional(),
    pidsLimit: integerIn(1, 10_000_000, "expected a whole number of processes").optional(),
    ulimits: z
      .array(ulimitSchema, { error: "expected a list of { name, soft, hard }" })
      .default([
        { name: "memlock", soft: -1, hard: -1 },
        { name: "stack", soft: 67_108_864, hard: 67_108_864 },
      ]),
    network: enumOf(["isolated", "host"] as const).default("isolated"),
    stopTimeoutS: positiveNumber("expected a number of seconds greater than 0").default(3),
    // The overlay image is removed after the round unless kept: a rebuild from cache is cheap, a
    // pile of per-run images on a runner's disk is not.
    keepCandidateImage: boolean().default(false),
  },
  { error: "expected an object with gpus, shmSize, ulimits, network" },
);

const buildSchema = z.strictObject(
  {
    timeoutS: positiveNumber("expected a number of seconds greater than 0").default(3600),
  },
  { error: "expected an object such as { timeoutS: 3600 }" },
);

export const roundConfigSchema = z
  .strictObject(
    {
      engine: nonEmptyString("expected the engine's name for the card, such as sglang"),
      runtime: enumOf(["docker", "process"] as const),
      port: integerIn(1, 65_535, "expected a TCP port from 1 to 65535"),
      health: healthSchema.default({ path: "/health", timeoutS: 1200, intervalMs: 500 }),
      baseline: baselineSchema,
      candidate: candidateSchema.default({ postPatch: [] }),
      bench: benchSchema,
      gate: gateSchema,
      docker: dockerSchema.default({
        shmSize: "16g",
        ulimits: [
          { name: "memlock", soft: -1, hard: -1 },
          { name: "stack", soft: 67_108_864, hard: 67_108_864 },
        ],
        network: "isolated",
        stopTimeoutS: 3,
        keepCandidateImage: false,
      }),
      build: buildSchema.default({ timeoutS: 3600 }),
    },
    { error: "expected a YAML mapping with engine, runtime, port, baseline, candidate, bench and gate" },
  )
  .superRefine((config, ctx) => {
    if (config.runtime === "process" && !config.baseline.command) {
      ctx.addIssue({
        code: "custom",
        path: ["baseline", "command"],
        message: "expected the command that starts the engine (runtime: process runs it on the host)",
      });
    }
    if (config.runtime === "docker" && !config.baseline.image && !config.baseline.build) {
      ctx.addIssue({
        code: "custom",
        path: ["baseline", "image"],
        message: "expected an image reference or baseline.build (runtime: docker)",
      });
    }
    if (config.candidate.patch && config.runtime === "process" && !config.candidate.sourceDir) {
      ctx.addIssue({
        code: "custom",
        path: ["candidate", "sourceDir"],
        message: "expected the folder the patch applies in (a copy of it is patched)",
      });
    }
    if (config.gate.use === "noise-floor" && !config.gate.calibration) {
      ctx.addIssue({
        code: "custom",
        path: ["gate", "calibration"],
        message: "expected the calibration file gate.use: noise-floor gates on (write one with speedgate calibrate)",
      });
    }
    if (config.candidate.build && config.candidate.patch) {
      ctx.addIssue({
        code: "custom",
        path: ["candidate", "build"],
        message: "expected either candidate.build (a full build) or candidate.patch (an overlay), not both",
      });
    }
  });

export type RoundConfig = z.infer<typeof roundConfigSchema>;
export type BuildSpec = z.infer<typeof buildSpecSchema>;
export type DockerSettings = RoundConfig["docker"];
export type BenchSettings = RoundConfig["bench"];
