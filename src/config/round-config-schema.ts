import { posix } from "node:path";
import { findUnknownPlaceholders } from "./find-unknown-placeholders.js";
import { listScenariosOnBenchPrompts } from "./list-scenarios-on-bench-prompts.js";
import { z } from "zod";
import { canonicalEngineName } from "../vocabulary/engine-family.js";
import {
  DEFAULT_BENCH_RUNS,
  DEFAULT_MAX_UNEXPLAINED,
  DEFAULT_MAX_UNSCORED,
  DEFAULT_MIN_AGREEMENT,
  DEFAULT_MIN_PROMPTS,
  GATE_MODES,
} from "../scoring/evaluate-gate.js";
import { DEFAULT_MIN_PROMPT_AGREEMENT } from "../scoring/judge-agreement.js";
import { MAX_SCENARIOS, SCENARIO_NAME } from "../vocabulary/scenario-name.js";

/*
 * Every field carries the sentence a user reads when it is wrong ("expected …"); the formatter adds
 * the field's path and the value that was given. Keeping the expectation next to the field means a
 * new field cannot be added without saying what it accepts.
 */

const nonEmptyString = (expected = "a non-empty string") => z.string({ error: expected }).min(1, { error: expected });

const integerIn = (min: number, max: number, expected: string) =>
  z.number({ error: expected }).int({ error: expected }).min(min, { error: expected }).max(max, { error: expected });

const positiveNumber = (expected: string) => z.number({ error: expected }).gt(0, { error: expected });

const boolean = () => z.boolean({ error: "expected true or false" });
/** A share in [0, 1), such as gate.maxUnscored or bench.minPromptAgreement. */
const shareSchema = (expected: string) => z.number({ error: expected }).min(0, { error: expected }).lt(1, { error: expected });
/** A share that may be whole: 1 asks for all of it. */
const wholeShareSchema = (expected: string) => z.number({ error: expected }).min(0, { error: expected }).max(1, { error: expected });

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
    postPatch: z.array(commandSchema, { error: "expected a list of commands, each a list of arguments" }).default([]),
    build: buildSpecSchema.optional(),
    env: envSchema.optional(),
    cwd: nonEmptyString("expected a folder path").optional(),
    // runtime: process runs the candidate as the runner's user: the action refuses a pull request's
    // patch there unless the config vouches for every author who can reach the workflow.
    trusted: boolean().default(false),
  },
  { error: "expected an object with patch, sourceDir, command, postPatch, build, env, cwd or trusted" },
);

const tokenizerSchema = z.union(
  [
    nonEmptyString(),
    z.strictObject({
      path: nonEmptyString("expected the path of the model's tokenizer.json"),
      from: enumOf(["runner", "image"] as const).optional(),
    }),
  ],
  {
    error:
      "expected the path of the model's tokenizer.json, or { path, from: runner | image } (default: inside the baseline image with " +
      "runtime: docker, on the runner with runtime: process)",
  },
);

const syntheticPromptsSchema = z.strictObject(
  {
    synthetic: z.strictObject(
      {
        inputTokens: integerIn(1, 10_000_000, "expected a whole number of prompt tokens from 1 to 10000000"),
        outputTokens: integerIn(1, 1_000_000, "expected a whole number of answer tokens from 1 to 1000000"),
        count: integerIn(1, 100_000, "expected a whole number of prompts from 1 to 100000"),
        // Another seed is another prompt set, so a round can be repeated on other text of the same shape.
        seed: integerIn(0, 2 ** 31 - 1, "expected a whole number from 0 to 2147483647").default(1),
      },
      { error: "expected an object with inputTokens, outputTokens, count and optionally seed" },
    ),
  },
  { error: "expected { synthetic: { inputTokens, outputTokens, count, seed } }" },
);

export type SyntheticPromptsSpec = z.infer<typeof syntheticPromptsSchema>["synthetic"];

const promptSourceSchema = z.union([nonEmptyString(), syntheticPromptsSchema], {
  error: "expected the path of a JSONL prompts file, or { synthetic: { inputTokens, outputTokens, count, seed } }",
});

/** The requests in flight of a closed loop: each answer's end sends the next prompt. */
const concurrencySchema = integerIn(1, 100_000, "expected a whole number of requests in flight from 1 to 100000");

const benchFields = z.strictObject(
  {
    // Optional here, required by the round: a round whose every scenario brings its own prompts needs none (refineBenchPrompts).
    prompts: promptSourceSchema.optional(),
    model: nonEmptyString("expected the served model name").default("default"),
    maxTokens: integerIn(1, 1_000_000, "expected a whole number of tokens from 1 to 1000000"),
    requestIntervalMs: z
      .number({ error: "expected a number of milliseconds, 0 or more" })
      .min(0, { error: "expected a number of milliseconds, 0 or more" })
      .optional(),
    arrival: enumOf(["fixed", "poisson"] as const).optional(),
    // null: the open loop, as a parsed config says it, so such a config parses again to itself.
    concurrency: concurrencySchema.nullable().optional(),
    seed: integerIn(0, 2 ** 31 - 1, "expected a whole number from 0 to 2147483647").default(1),
    thinking: boolean().default(false),
    contextLimit: integerIn(1, 10_000_000, "expected a whole number of tokens from 1 to 10000000"),
    tolerance: z
      .number({ error: "expected a number in (0, 1]" })
      .gt(0, { error: "expected a number in (0, 1]" })
      .lte(1, { error: "expected a number in (0, 1]" }),
    warmupRequests: integerIn(0, 10_000, "expected a whole number from 0 to 10000").default(0),
    // Each run restarts both engines; the interval then covers how much engine starts differ in speed.
    runs: integerIn(1, 100, "expected a whole number of runs from 1 to 100").default(DEFAULT_BENCH_RUNS),
    // counterbalanced: odd runs start the baseline first, even runs the candidate, so going first or second favours neither.
    order: enumOf(["counterbalanced", "baseline-first"] as const).default("counterbalanced"),
    // Runs the client's code over a local stub before the first measured request, so the first engine measured is not the one that pays for
    // a cold client.
    clientWarmup: boolean().default(true),
    requestTimeoutS: positiveNumber("expected a number of seconds greater than 0").default(600),
    tokenizer: tokenizerSchema.optional(),
    agreementTokens: integerIn(0, 1_000_000, "expected a whole number of tokens, 0 (off) to 1000000").default(16),
    // An answer that parts from the baseline's must agree on more than this share of the compared length, or it is diverged.
    minPromptAgreement: shareSchema("expected a share of the compared length in [0, 1), such as 0.5 (0: off)").default(
      DEFAULT_MIN_PROMPT_AGREEMENT,
    ),
    // Spinning costs a core for the benchmark's length, so `auto` spins only where cores are plenty.
    busyPoll: enumOf(["auto", "on", "off"] as const).default("auto"),
  },
  { error: "expected an object with prompts, maxTokens, requestIntervalMs (or concurrency), contextLimit and tolerance" },
);

/*
 * The load is one of two shapes: an open loop (requests sent at their times, requestIntervalMs and
 * arrival) or a closed loop (concurrency: N in flight). Both at once would leave one of them ignored,
 * so the config must choose. The parsed settings keep requestIntervalMs and arrival as numbers every
 * reader has (0 and fixed under a closed loop) and concurrency null under an open one.
 */
const benchSchema = benchFields
  .superRefine((bench, ctx) => {
    if (bench.concurrency == null && bench.requestIntervalMs === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["requestIntervalMs"],
        message: "expected a number of milliseconds, 0 or more (or bench.concurrency, the requests kept in flight)",
      });
    }
    if (bench.concurrency == null) return;
    for (const field of ["requestIntervalMs", "arrival"] as const) {
      if (bench[field] === undefined) continue;
      ctx.addIssue({
        code: "custom",
        path: [field],
        message:
          `expected either bench.concurrency (a closed loop: the next prompt is sent when an answer ends) or bench.${field} (an open ` +
          `loop: prompts sent on a schedule), not both; remove one`,
      });
    }
  })
  // The fields keep the order they had before bench.concurrency existed (the config's fingerprint is
  // its JSON, so an open loop's config keeps its hash and the calibrations made for it), concurrency last.
  .transform(({ prompts, model, maxTokens, requestIntervalMs, arrival, concurrency, ...bench }) => ({
    prompts,
    model,
    maxTokens,
    requestIntervalMs: requestIntervalMs ?? 0,
    arrival: arrival ?? "fixed",
    ...bench,
    concurrency: concurrency ?? null,
  }));

/** The gate's limits, shared with the repository config (.github/speedgate.yml), which sets them for the app's re-gate. */
export const maxUnscoredSchema = shareSchema("expected a share of prompts in [0, 1), such as 0.1").default(DEFAULT_MAX_UNSCORED);
export const minPromptsSchema = integerIn(1, 10_000_000, "expected a whole number of prompts, 1 or more").default(DEFAULT_MIN_PROMPTS);
export const minAgreementSchema = wholeShareSchema("expected a share of the compared length in [0, 1], such as 1 or 0.9 (0: off)").default(
  DEFAULT_MIN_AGREEMENT,
);
export const maxUnexplainedSchema = shareSchema("expected a share of prompts in [0, 1), such as 0 or 0.05").default(
  DEFAULT_MAX_UNEXPLAINED,
);

const gateSchema = z
  .strictObject(
    {
      minRoundScore: positiveNumber("expected a speedup greater than 0, such as 1.0"),
      // Without a calibration the interval's low end must clear the bar; with one, the noise floor decides.
      use: enumOf(GATE_MODES).optional(),
      maxUnscored: maxUnscoredSchema,
      minPrompts: minPromptsSchema,
      minAgreement: minAgreementSchema,
      maxUnexplained: maxUnexplainedSchema,
      calibration: nonEmptyString("expected the path of a calibration file written by speedgate calibrate").optional(),
      // With scenarios: the floor no scenario's interval may lie wholly below, whatever each scenario's own bar says.
      maxRegression: z
        .number({ error: "expected a speedup in (0, 1], such as 0.97" })
        .gt(0, { error: "expected a speedup in (0, 1], such as 0.97" })
        .lte(1, { error: "expected a speedup in (0, 1], such as 0.97" })
        .optional(),
    },
    { error: "expected an object such as { minRoundScore: 1.0 }" },
  )
  .transform((gate) => ({ ...gate, use: gate.use ?? (gate.calibration ? "noise-floor" : "interval-low") }) as const);

/*
 * A scenario's gate overrides some of the round's bar: the limits that judge its own prompts. The
 * calibration is the round's (an A/A study of one config), and maxRegression is the whole round's.
 * The app's repository config takes the same fields per scenario name (repo-config-schema.ts).
 */
export const scenarioGateSchema = z.strictObject(
  {
    minRoundScore: positiveNumber("expected a speedup greater than 0, such as 1.0").optional(),
    use: enumOf(GATE_MODES).optional(),
    maxUnscored: maxUnscoredSchema.unwrap().optional(),
    minPrompts: minPromptsSchema.unwrap().optional(),
    minAgreement: minAgreementSchema.unwrap().optional(),
    maxUnexplained: maxUnexplainedSchema.unwrap().optional(),
  },
  { error: "expected an object with some of minRoundScore, use, maxUnscored, minPrompts, minAgreement and maxUnexplained" },
);

const scenarioNameExpectation =
  "expected a name of 1 to 64 letters, digits, spaces or . _ + -, starting with a letter or digit, such as chat-rate4";

/**
 * One workload of the round: the bench settings it changes (everything else is `bench`'s) and a
 * partial gate. Parsed as written; mergeScenarioConfig makes the round config it is benchmarked with.
 */
const scenarioSchema = z.strictObject(
  {
    name: z.string({ error: scenarioNameExpectation }).regex(SCENARIO_NAME, { error: scenarioNameExpectation }),
    prompts: promptSourceSchema.optional(),
    maxTokens: integerIn(1, 1_000_000, "expected a whole number of tokens from 1 to 1000000").optional(),
    requestIntervalMs: z
      .number({ error: "expected a number of milliseconds, 0 or more" })
      .min(0, { error: "expected a number of milliseconds, 0 or more" })
      .optional(),
    arrival: enumOf(["fixed", "poisson"] as const).optional(),
    concurrency: concurrencySchema.optional(),
    runs: integerIn(1, 100, "expected a whole number of runs from 1 to 100").optional(),
    warmupRequests: integerIn(0, 10_000, "expected a whole number from 0 to 10000").optional(),
    gate: scenarioGateSchema.optional(),
  },
  {
    error:
      "expected an object with name and some of prompts, maxTokens, requestIntervalMs, arrival, concurrency, runs, warmupRequests and gate",
  },
);

export type ScenarioSettings = z.infer<typeof scenarioSchema>;

const scenariosSchema = z
  .array(scenarioSchema, { error: "expected a list of scenarios, each { name, … }" })
  .min(1, { error: "expected at least one scenario (or no scenarios field)" })
  .max(MAX_SCENARIOS, { error: `expected at most ${MAX_SCENARIOS} scenarios: each costs a benchmark per engine per run` });

const gpusSchema = z.union([z.literal("all"), z.number().int().min(1), z.array(z.string().min(1)).min(1)], {
  error: 'expected "all", a GPU count such as 2, or a list of device ids such as ["0", "1"]',
});

const ulimitSchema = z.strictObject(
  {
    name: nonEmptyString("expected a ulimit name such as memlock"),
    soft: z.number({ error: "expected a whole number, -1 for unlimited" }).int(),
    hard: z.number({ error: "expected a whole number, -1 for unlimited" }).int(),
  },
  { error: "expected an object with name, soft and hard" },
);

const mountExpectation = 'expected { source, target } (readOnly: false to allow writes) or "host path:container path[:ro|rw]"';

/** "source:target[:ro|rw]", as `docker run -v` takes it, into the object form; anything else is left for the object's errors. */
function mountFromShortForm(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const parts = value.split(":");
  const mode = parts.length === 3 ? parts[2] : undefined;
  const valid =
    (parts.length === 2 || parts.length === 3) && parts[1]?.startsWith("/") && (mode === undefined || mode === "ro" || mode === "rw");
  if (!valid) return value;
  return { source: parts[0], target: parts[1], readOnly: mode !== "rw" };
}

/*
 * A bind mount from the runner into both engines' containers: weights, the Hugging Face cache. Read-only
 * unless the config opts in, because the candidate is untrusted code and a writable mount is shared
 * with the next round's engines.
 */
const mountSchema = z.preprocess(
  mountFromShortForm,
  z.strictObject(
    {
      source: nonEmptyString("expected a path on the runner (absolute, or relative to the config's folder)"),
      target: z
        .string({ error: "expected an absolute path inside the container, such as /models" })
        .regex(/^\/./, { error: "expected an absolute path inside the container, such as /models" }),
      readOnly: boolean().default(true),
    },
    { error: mountExpectation },
  ),
);

const SIZE = /^\d+(\.\d+)?[bkmgt]?$/i;
const sizeString = (expected: string) => z.string({ error: expected }).regex(SIZE, { error: expected });

/** A size, a share of the Docker host's memory, or no limit at all. */
const memoryLimitSchema = z
  .string({ error: 'expected a size such as "64g", a share of the host\'s memory such as "90%", or "unlimited"' })
  .regex(/^(\d+(\.\d+)?[bkmgt]?|(100|[1-9]\d?)(\.\d+)?%|unlimited)$/i, {
    error: 'expected a size such as "64g", a share of the host\'s memory such as "90%", or "unlimited"',
  });

const capabilitySchema = z
  .string({ error: "expected a Linux capability name such as SYS_PTRACE" })
  .regex(/^(CAP_)?[A-Z][A-Z_]+$/, { error: "expected a Linux capability name such as SYS_PTRACE" })
  .refine((name) => name !== "ALL" && name !== "CAP_ALL", { error: "expected a single capability, not ALL (that is privileged mode)" });

const dockerSchema = z.strictObject(
  {
    gpus: gpusSchema.optional(),
    // Unset: 16g, or half the memory limit when that is smaller (shared memory counts against it).
    shmSize: sizeString('expected a size such as "16g", "512m"').optional(),
    // The IPC namespace: private by default (engines use /dev/shm, sized by shmSize); "host" is what
    // SGLang's docs run with, at the cost of sharing the runner's shared memory with the patch.
    ipc: enumOf(["private", "host", "shareable"] as const).default("private"),
    memory: memoryLimitSchema.default("90%"),
    pidsLimit: integerIn(1, 10_000_000, "expected a whole number of processes").default(16_384),
    cpus: positiveNumber("expected a number of CPUs greater than 0, such as 16 or 7.5").optional(),
    capAdd: z.array(capabilitySchema, { error: "expected a list of capability names, such as [SYS_PTRACE]" }).default([]),
    logMaxSize: sizeString('expected a size such as "64m"').default("64m"),
    logMaxFiles: integerIn(1, 100, "expected a whole number of files from 1 to 100").default(2),
    ulimits: z.array(ulimitSchema, { error: "expected a list of { name, soft, hard }" }).default([
      { name: "memlock", soft: -1, hard: -1 },
      { name: "stack", soft: 67_108_864, hard: 67_108_864 },
    ]),
    network: enumOf(["isolated", "host"] as const).default("isolated"),
    // The engine container's writable layer (what it writes outside its mounts): past it, writes fail
    // with ENOSPC instead of filling the daemon's disk. Enforced where the storage driver can (overlay2
    // on xfs with pquota, btrfs, zfs); elsewhere the round says it is not, and goes on.
    diskSize: z
      .string({ error: 'expected a size such as "100g", or "unlimited"' })
      .regex(/^(\d+(\.\d+)?[kmgt]?|unlimited)$/i, { error: 'expected a size such as "100g", or "unlimited"' })
      .default("100g"),
    mounts: z.array(mountSchema, { error: `expected a list of mounts, each ${mountExpectation.replace(/^expected /, "")}` }).default([]),
    // Replaces the image's ENTRYPOINT; [] clears it, so `command` is the whole command (vllm/vllm-openai's is `vllm serve`).
    entrypoint: z
      .array(nonEmptyString("expected each argument to be a non-empty string"), {
        error: "expected a list of arguments, or [] to clear the image's ENTRYPOINT",
      })
      .optional(),
    stopTimeoutS: positiveNumber("expected a number of seconds greater than 0").default(3),
    // The overlay image is removed after the round unless kept: a rebuild from cache is cheap, a
    // pile of per-run images on a runner's disk is not.
    keepCandidateImage: boolean().default(false),
  },
  { error: "expected an object with gpus, shmSize, ipc, memory, pidsLimit, ulimits, network" },
);

const buildSchema = z.strictObject(
  {
    timeoutS: positiveNumber("expected a number of seconds greater than 0").default(3600),
    // The candidate's build runs the patch's code (postPatch): no network unless asked for.
    network: enumOf(["none", "default", "host"] as const).default("none"),
  },
  { error: "expected an object such as { timeoutS: 3600, network: none }" },
);

const absolutePath = (expected: string) => z.string({ error: expected }).regex(/^\/./, { error: expected });

const regexString = (expected: string) =>
  z.string({ error: expected }).refine(
    (text) => {
      try {
        new RegExp(text);
        return true;
      } catch {
        return false;
      }
    },
    { error: expected },
  );

const globList = (expected: string) =>
  z.array(nonEmptyString("expected each glob to be a non-empty string, such as python/** or !**/tests/**"), { error: expected });

/** The OCI label image builders set to the commit they built (docker/metadata-action, `docker build --label`). */
export const DEFAULT_REVISION_LABEL = "org.opencontainers.image.revision";

const revisionExpectation =
  "expected where the image's commit is written: { label: org.opencontainers.image.revision }, { file: /path/in/image } (optionally " +
  "with pattern: a regular expression whose first group is the commit), or { commit: <sha> }";

/*
 * Where the commit of the image's source checkout comes from. A git HEAD file (`.git/HEAD`) is
 * followed to the ref it names; a pattern picks the commit out of any file (vLLM's _version.py has
 * `+g<short sha>`); an abbreviated commit is resolved in the repository.
 */
const revisionSchema = z.union(
  [
    z.strictObject({ label: nonEmptyString("expected an image label name such as org.opencontainers.image.revision") }),
    z.strictObject({
      file: absolutePath("expected an absolute path inside the image, such as /sgl-workspace/sglang/.git/HEAD"),
      pattern: regexString("expected a regular expression whose first group is the commit, such as \\+g([0-9a-f]{7,40})").optional(),
    }),
    z.strictObject({
      commit: z
        .string({ error: "expected a commit SHA (7 to 40 hexadecimal digits)" })
        .regex(/^[0-9a-fA-F]{7,40}$/, { error: "expected a commit SHA (7 to 40 hexadecimal digits)" }),
    }),
  ],
  { error: revisionExpectation },
);

/*
 * Scoring a pull request against its own base (speedgate run --base --head, the action's base-sha and
 * head-sha): how the engine image's source checkout (candidate.sourceDir) is brought to a commit, and
 * which changes need a build. See docs/scoring-pull-requests.md.
 */
const sourceSchema = z.strictObject(
  {
    revision: revisionSchema.default({ label: DEFAULT_REVISION_LABEL }),
    // vLLM's images install a wheel: only vllm/** has a place to go in site-packages.
    paths: globList("expected a list of globs of the files the overlay brings to each commit, such as [vllm/**]").default([]),
    compiledPaths: globList(
      "expected a list of globs of compiled code, such as [sgl-kernel/**, csrc/**, CMakeLists.txt, setup.py]",
    ).default([]),
    build: z.array(commandSchema, { error: "expected a list of commands, each a list of arguments" }).default([]),
    buildCache: absolutePath(
      "expected the absolute path inside the image where the runner's build cache volume is mounted, such as /root/.cache/ccache",
    ).optional(),
    buildCacheHit: regexString(
      'expected a regular expression matched against the build\'s output, such as "cache hit rate\\s+100"',
    ).optional(),
    cacheBaseline: boolean().default(true),
  },
  { error: "expected an object with revision, paths, compiledPaths, build, buildCache, buildCacheHit or cacheBaseline" },
);

/** The part of a parsed config that says where engines run and what they mount. */
interface RuntimePaths {
  runtime: "docker" | "process";
  baseline: { cwd?: string | undefined };
  candidate: { cwd?: string | undefined; sourceDir?: string | undefined };
  docker: { mounts: ReadonlyArray<{ target: string }> };
}

/** Where each engine runs and what is mounted must make sense for the runtime before any path is looked at on disk. */
function refineRuntimePaths(config: RuntimePaths, ctx: z.RefinementCtx): void {
  if (config.runtime === "docker") {
    for (const role of ["baseline", "candidate"] as const) {
      const cwd = config[role].cwd;
      if (cwd !== undefined && !posix.isAbsolute(cwd)) {
        ctx.addIssue({
          code: "custom",
          path: [role, "cwd"],
          message: "expected an absolute path inside the image (the container's working folder)",
        });
      }
    }
  }
  if (config.runtime === "process" && config.docker.mounts.length > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["docker", "mounts"],
      message: "expected no mounts with runtime: process (engines on the host see its folders directly)",
    });
  }
  const sourceDir = config.runtime === "docker" ? config.candidate.sourceDir : undefined;
  const seen = new Set<string>();
  config.docker.mounts.forEach((mount, index) => {
    const target = posix.normalize(mount.target).replace(/\/$/, "");
    // The path is the whole mount: the formatter then shows it as written, short form included.
    if (seen.has(target)) {
      ctx.addIssue({
        code: "custom",
        path: ["docker", "mounts", index],
        message: `expected each container path mounted once, but ${target} is already mounted`,
      });
    }
    seen.add(target);
    if (sourceDir && `${posix.normalize(sourceDir)}/`.startsWith(`${target}/`)) {
      ctx.addIssue({
        code: "custom",
        path: ["docker", "mounts", index],
        message: `expected a target that does not cover candidate.sourceDir (${sourceDir}): the mount would hide the patched source`,
      });
    }
  });
}

/*
 * Synthetic prompts are made with the round's tokenizer when the round is loaded, before any image
 * exists, so the tokenizer must be a file on the runner; and a prompt and its fixed answer must fit
 * the context together. `at` is where the prompts were written: bench, or a scenario.
 */
function refineSyntheticPrompts(
  prompts: RoundConfig["bench"]["prompts"],
  config: Pick<RoundConfig, "bench" | "runtime">,
  ctx: z.RefinementCtx,
  at: ReadonlyArray<string | number>,
): void {
  if (prompts === undefined || typeof prompts === "string") return;
  const { inputTokens, outputTokens } = prompts.synthetic;
  if (tokenizerLocation(config)?.from !== "runner") {
    const inBench = at[0] === "bench";
    ctx.addIssue({
      code: "custom",
      path: inBench ? ["bench", "tokenizer"] : [...at, "prompts"],
      message:
        `expected the model's tokenizer.json on the runner (${inBench ? "" : "bench.tokenizer: "}{ path, from: runner }) with ` +
        `${inBench ? "bench.prompts.synthetic" : "synthetic prompts"}: the prompts are built to an exact token length with it when the ` +
        `round is loaded`,
    });
  }
  if (inputTokens + outputTokens > config.bench.contextLimit) {
    ctx.addIssue({
      code: "custom",
      path: [...at, "prompts", "synthetic"],
      message:
        `expected inputTokens + outputTokens (${inputTokens + outputTokens}) at most bench.contextLimit ` +
        `(${config.bench.contextLimit}); lower one of them`,
    });
  }
}

/** The parsed config's fields a scenario merges into. */
type ScenarioBase = Pick<RoundConfig, "bench" | "gate">;

/**
 * The settings a scenario is benchmarked and gated with: `bench` and `gate` with the scenario's own
 * fields over them. Its load is one shape: concurrency makes it a closed loop (the inherited interval
 * and arrival dropped), an interval or arrival an open loop (the inherited concurrency dropped).
 */
export function mergeScenarioConfig<T extends ScenarioBase>(config: T, scenario: ScenarioSettings): T {
  const { name: _name, gate, concurrency, requestIntervalMs, arrival, ...overrides } = scenario;
  const bench = config.bench;
  const inheritedOpen = bench.concurrency === null;
  const load =
    concurrency !== undefined
      ? { requestIntervalMs: 0, arrival: "fixed" as const, concurrency }
      : requestIntervalMs !== undefined || arrival !== undefined
        ? {
            requestIntervalMs: requestIntervalMs ?? (inheritedOpen ? bench.requestIntervalMs : 0),
            arrival: arrival ?? (inheritedOpen ? bench.arrival : "fixed"),
            concurrency: null,
          }
        : {};
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) as Partial<RoundConfig["bench"]>;
  return { ...config, bench: { ...bench, ...defined, ...load }, gate: { ...config.gate, ...gate } };
}

/** Each scenario's merged settings must hold what bench's do; every problem names the scenario's field. */
function refineScenarios(config: RoundConfig, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  config.scenarios?.forEach((scenario, index) => {
    const at = ["scenarios", index] as const;
    if (seen.has(scenario.name)) {
      ctx.addIssue({
        code: "custom",
        path: [...at, "name"],
        message: `expected distinct scenario names, but ${JSON.stringify(scenario.name)} is already used`,
      });
    }
    seen.add(scenario.name);
    if (scenario.concurrency !== undefined) {
      for (const field of ["requestIntervalMs", "arrival"] as const) {
        if (scenario[field] === undefined) continue;
        ctx.addIssue({
          code: "custom",
          path: [...at, field],
          message: `expected either concurrency (a closed loop) or ${field} (an open loop) in one scenario, not both; remove one`,
        });
      }
    } else if (scenario.requestIntervalMs === undefined && scenario.arrival !== undefined && config.bench.concurrency !== null) {
      ctx.addIssue({
        code: "custom",
        path: [...at, "requestIntervalMs"],
        message:
          "expected a number of milliseconds, 0 or more, with arrival: bench is a closed loop (bench.concurrency), so it has no " +
          "interval to inherit",
      });
    }
    const merged = mergeScenarioConfig(config, scenario);
    if (scenario.maxTokens !== undefined && merged.bench.maxTokens > merged.bench.contextLimit) {
      ctx.addIssue({
        code: "custom",
        path: [...at, "maxTokens"],
        message:
          `expected at most bench.contextLimit (${merged.bench.contextLimit}): an answer cannot be longer than the context it is ` +
          `written in`,
      });
    }
    if (scenario.prompts !== undefined) refineSyntheticPrompts(scenario.prompts, merged, ctx, at);
    if (scenario.gate?.use === "noise-floor" && !merged.gate.calibration) {
      ctx.addIssue({
        code: "custom",
        path: [...at, "gate", "use"],
        message:
          "expected the calibration file gate.use: noise-floor gates on, in the round's gate.calibration (write one with speedgate " +
          "calibrate)",
      });
    }
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/*
 * bench.prompts is the whole round's prompts without scenarios, and what a scenario without prompts
 * of its own sends: it may be left out only when every scenario names its own. Read from the config
 * as given, so a missing bench.prompts is reported beside any other field's problem.
 */
function refineBenchPrompts(input: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(input) || !isRecord(input.bench) || input.bench.prompts !== undefined) return;
  const expected = "expected the path of a JSONL prompts file, or { synthetic: { inputTokens, outputTokens, count, seed } }";
  if (!Array.isArray(input.scenarios)) {
    ctx.addIssue({ code: "custom", path: ["bench", "prompts"], message: expected });
    return;
  }
  // A scenario that is not even an object has its own error; one without a name is named by its place.
  const named = input.scenarios.flatMap((scenario: unknown, index) =>
    isRecord(scenario)
      ? [{ name: typeof scenario.name === "string" ? scenario.name : `at scenarios[${index}]`, prompts: scenario.prompts }]
      : [],
  );
  const needing = listScenariosOnBenchPrompts(named);
  if (needing.length === 0) return;
  const which = needing.length === 1 ? `scenario ${needing[0]}` : `scenarios ${needing.slice(0, -1).join(", ")} and ${needing.at(-1)}`;
  ctx.addIssue({
    code: "custom",
    path: ["bench", "prompts"],
    message:
      needing.length === 1
        ? `${expected}, since ${which} sets no prompts of its own (or give it prompts)`
        : `${expected}, since ${which} set no prompts of their own (or give each of them prompts)`,
  });
}

export const roundConfigSchema = z
  .strictObject(
    {
      // A known engine's other spellings (llama-cpp, LlamaCpp, vLLM) become its one name, so calibrations and cards agree.
      engine: nonEmptyString("expected the engine's name for the card, such as sglang, vllm or llama.cpp").transform(canonicalEngineName),
      runtime: enumOf(["docker", "process"] as const),
      port: integerIn(1, 65_535, "expected a TCP port from 1 to 65535"),
      health: healthSchema.default({ path: "/health", timeoutS: 1200, intervalMs: 500 }),
      baseline: baselineSchema,
      candidate: candidateSchema.default({ postPatch: [], trusted: false }),
      bench: benchSchema,
      gate: gateSchema,
      docker: dockerSchema.prefault({}),
      build: buildSchema.prefault({}),
      source: sourceSchema.prefault({}),
      // Absent: the round is the one workload bench describes, as before scenarios existed (same fingerprint).
      scenarios: scenariosSchema.optional(),
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
    for (const role of ["baseline", "candidate"] as const) {
      const command = config[role].command;
      if (!command) continue;
      for (const { index, problem } of findUnknownPlaceholders(command, config.runtime))
        ctx.addIssue({ code: "custom", path: [role, "command", index], message: problem });
    }
    refineRuntimePaths(config, ctx);
    // Only between two valid limits: a wrong contextLimit has its own message.
    if (config.bench.contextLimit >= 1 && config.bench.maxTokens > config.bench.contextLimit) {
      // The engine refuses such a request (or truncates it), so every prompt would fail or be cut alike.
      ctx.addIssue({
        code: "custom",
        path: ["bench", "maxTokens"],
        message:
          `expected at most bench.contextLimit (${config.bench.contextLimit}): an answer cannot be longer than the context it is ` +
          `written in`,
      });
    }
    refineSyntheticPrompts(config.bench.prompts, config, ctx, ["bench"]);
    refineScenarios(config, ctx);
    const tokenizer = config.bench.tokenizer;
    const from = typeof tokenizer === "object" ? tokenizer.from : undefined;
    if (from === "image" && config.runtime === "process") {
      ctx.addIssue({
        code: "custom",
        path: ["bench", "tokenizer", "from"],
        message: 'expected "runner" with runtime: process (there is no image to read it from)',
      });
    }
    const path = typeof tokenizer === "object" ? tokenizer.path : tokenizer;
    if (path !== undefined && (from ?? (config.runtime === "docker" ? "image" : "runner")) === "image" && !path.startsWith("/")) {
      ctx.addIssue({
        code: "custom",
        path: ["bench", "tokenizer"],
        message:
          "expected an absolute path inside the baseline image, such as /models/m/tokenizer.json (or { path, from: runner } for a " +
          "file on the runner)",
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
  })
  // Runs even when other fields are wrong (when: always), which is why it reads the input as unknown.
  .superRefine(refineBenchPrompts, { when: () => true });

export type RoundConfig = z.infer<typeof roundConfigSchema>;
export type BuildSpec = z.infer<typeof buildSpecSchema>;
export type DockerSettings = RoundConfig["docker"];
export type DockerMount = DockerSettings["mounts"][number];
export type BenchSettings = RoundConfig["bench"];
export type SourceSettings = RoundConfig["source"];
export type RevisionSource = SourceSettings["revision"];

/** Where bench.tokenizer is read from: a file on the runner, or one inside the baseline image. */
export interface TokenizerLocation {
  path: string;
  from: "runner" | "image";
}

export function tokenizerLocation(config: Pick<RoundConfig, "bench" | "runtime">): TokenizerLocation | null {
  const tokenizer = config.bench.tokenizer;
  if (tokenizer === undefined) return null;
  if (typeof tokenizer === "string") return { path: tokenizer, from: config.runtime === "docker" ? "image" : "runner" };
  return { path: tokenizer.path, from: tokenizer.from ?? (config.runtime === "docker" ? "image" : "runner") };
}
