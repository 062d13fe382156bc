import { z } from "zod";
import { boolean, enumOf, integerIn, nonEmptyString, positiveNumber, shareSchema } from "./config-field-kinds.js";
import { tokenizerSchema } from "./tokenizer-location.js";
import { DEFAULT_MIN_PROMPT_AGREEMENT } from "../scoring/judge-agreement.js";
import { DEFAULT_RUN_BUDGET, MAX_BUDGET_RUNS, describeBudgetProblem } from "../scoring/sequential-design.js";

/*
 * The bench section: the prompts, the load and how answers are counted and compared. The fields a
 * scenario may change (scenario-settings-schema.ts) are written here once, with the same expectation.
 */

const seedSchema = integerIn(0, 2 ** 31 - 1, "expected a whole number from 0 to 2147483647").default(1);

const syntheticPromptsSchema = z.strictObject(
  {
    synthetic: z.strictObject(
      {
        inputTokens: integerIn(1, 10_000_000, "expected a whole number of prompt tokens from 1 to 10000000"),
        outputTokens: integerIn(1, 1_000_000, "expected a whole number of answer tokens from 1 to 1000000"),
        count: integerIn(1, 100_000, "expected a whole number of prompts from 1 to 100000"),
        // Another seed is another prompt set, so a round can be repeated on other text of the same shape.
        seed: seedSchema,
      },
      { error: "expected an object with inputTokens, outputTokens, count and optionally seed" },
    ),
  },
  { error: "expected { synthetic: { inputTokens, outputTokens, count, seed } }" },
);

export type SyntheticPromptsSpec = z.infer<typeof syntheticPromptsSchema>["synthetic"];

export const PROMPT_SOURCE_EXPECTATION =
  "expected the path of a JSONL prompts file, or { synthetic: { inputTokens, outputTokens, count, seed } }";

export const promptSourceSchema = z.union([nonEmptyString(), syntheticPromptsSchema], { error: PROMPT_SOURCE_EXPECTATION });

export const maxTokensSchema = integerIn(1, 1_000_000, "expected a whole number of tokens from 1 to 1000000");

export const requestIntervalSchema = z
  .number({ error: "expected a number of milliseconds, 0 or more" })
  .min(0, { error: "expected a number of milliseconds, 0 or more" });

export const arrivalSchema = enumOf(["fixed", "poisson"] as const);

/** The requests in flight of a closed loop: each answer's end sends the next prompt. */
export const concurrencySchema = integerIn(1, 100_000, "expected a whole number of requests in flight from 1 to 100000");

const RUNS_EXPECTATION =
  "expected a whole number of runs from 1 to 100, or a budget { min, max } of runs from 2 to " +
  `${MAX_BUDGET_RUNS} the rule decides within`;
const budgetRuns = integerIn(2, MAX_BUDGET_RUNS, `expected a whole number of runs from 2 to ${MAX_BUDGET_RUNS}`);

/**
 * bench.runs: a number runs each engine that many times, as always; a budget { min, max } runs them
 * at least min and at most max times, the sequential rule deciding after each pair whether to go on.
 */
export const runsSchema = z.union(
  [
    integerIn(1, 100, RUNS_EXPECTATION),
    z.strictObject({ min: budgetRuns, max: budgetRuns }, { error: "expected a budget with min and max, such as { min: 2, max: 24 }" }),
  ],
  { error: RUNS_EXPECTATION },
);

/** bench.runs as parsed: a fixed number of runs, or a budget. */
export type RunsSetting = z.infer<typeof runsSchema>;

export const warmupRequestsSchema = integerIn(0, 10_000, "expected a whole number from 0 to 10000");

const benchFields = z.strictObject(
  {
    // Optional here, required by the round: a round whose every scenario brings its own prompts needs none (refineBenchPrompts).
    prompts: promptSourceSchema.optional(),
    model: nonEmptyString("expected the served model name").default("default"),
    maxTokens: maxTokensSchema,
    requestIntervalMs: requestIntervalSchema.optional(),
    arrival: arrivalSchema.optional(),
    // null: the open loop, as a parsed config says it, so such a config parses again to itself.
    concurrency: concurrencySchema.nullable().optional(),
    seed: seedSchema,
    thinking: boolean().default(false),
    contextLimit: integerIn(1, 10_000_000, "expected a whole number of tokens from 1 to 10000000"),
    tolerance: z
      .number({ error: "expected a number in (0, 1]" })
      .gt(0, { error: "expected a number in (0, 1]" })
      .lte(1, { error: "expected a number in (0, 1]" }),
    warmupRequests: warmupRequestsSchema.default(0),
    // Each run restarts both engines; the interval then covers how much engine starts differ in speed.
    runs: runsSchema.default({ ...DEFAULT_RUN_BUDGET }),
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
export const benchSchema = benchFields
  .superRefine((bench, ctx) => {
    const budgetProblem = typeof bench.runs === "object" ? describeBudgetProblem(bench.runs, bench.order) : null;
    if (budgetProblem) ctx.addIssue({ code: "custom", path: ["runs"], message: budgetProblem });
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

export type BenchSettings = z.infer<typeof benchSchema>;
