import { z } from "zod";
import { DEFAULT_ANSWER, NO_CHEATS, answerSchema, cheatsSchema } from "./sim-integrity-profile.js";
import { DEFAULT_QUESTION_MODEL, questionModelSchema } from "./sim-question-model.js";

const nonNegative = (expected: string) => z.number({ error: expected }).min(0, { error: expected });
const wholeAtLeast = (min: number, expected: string) =>
  z.number({ error: expected }).int({ error: expected }).min(min, { error: expected });
const promptIds = z.array(z.string({ error: "expected prompt ids as strings" }), { error: "expected a list of prompt ids" });

const timingSchema = z.strictObject(
  {
    ttftMs: nonNegative("expected milliseconds to the first token, 0 or more"),
    itlMs: nonNegative("expected milliseconds between tokens, 0 or more"),
    outputTokens: wholeAtLeast(0, "expected a whole number of output tokens, 0 or more"),
    reasoningTokens: wholeAtLeast(0, "expected a whole number of reasoning tokens, 0 or more"),
    tokensPerChunk: wholeAtLeast(1, "expected a whole number of tokens per streamed chunk, 1 or more"),
  },
  { error: "expected an object with ttftMs, itlMs, outputTokens, reasoningTokens, tokensPerChunk" },
);

const faultsSchema = z.strictObject(
  {
    crashAtStart: z
      .strictObject(
        {
          logFile: z.string({ error: "expected the path of a log file to print" }).optional(),
          exitCode: wholeAtLeast(0, "expected an exit code, 0 or more").default(1),
        },
        { error: "expected { logFile, exitCode }" },
      )
      .nullable()
      .default(null),
    neverHealthy: z.boolean({ error: "expected true or false" }).default(false),
    startupDelayMs: nonNegative("expected milliseconds, 0 or more").default(0),
    dieAfterRequests: wholeAtLeast(1, "expected a whole number of requests, 1 or more").nullable().default(null),
    dieExitCode: wholeAtLeast(0, "expected an exit code, 0 or more").default(1),
    /**
     * After this many answers, every other answer streams its tokens but never its end: it hangs
     * until the engine goes away. A test that cuts the engine once the first answers are in knows the
     * rest are still in flight when the cut lands, however late a loaded machine runs it.
     */
    holdAfterRequests: wholeAtLeast(1, "expected a whole number of requests, 1 or more").nullable().default(null),
    stopEarly: promptIds.default([]),
    stopEarlyFraction: z.number({ error: "expected a fraction in [0, 1)" }).min(0).lt(1).default(0.25),
    /**
     * The engine starts (0-based, --start-counter) in which the stopEarly prompts stop early; null: every
     * start. An early stop that comes and goes between starts is what a batch-dependent one looks like
     * from outside: the same engine, the same prompt, another answer in another run.
     */
    stopEarlyOnStarts: z.array(wholeAtLeast(0, "expected start numbers, 0 or more")).nullable().default(null),
    http500: promptIds.default([]),
    malformedSse: promptIds.default([]),
  },
  { error: "expected an object of fault settings" },
);

const noiseSchema = z.strictObject(
  {
    jitter: nonNegative("expected the per-request timing spread as a log-scale standard deviation, such as 0.03").default(0),
    runVariance: nonNegative("expected the per-start speed spread as a log-scale standard deviation, such as 0.02").default(0),
    seed: z.number({ error: "expected a whole number seed, or null for fresh draws" }).int().nullable().default(null),
  },
  { error: "expected an object with jitter, runVariance and seed" },
);

/**
 * What a sim-engine does, as a JSON file: timings for every prompt (`defaults`), overrides for some
 * prompts by id (a request is matched to its id by its content, through `promptsFile`), and faults. A demo "engine source tree" is just
 * such a file, so a patch to it makes the engine faster, slower or broken in a way a reviewer can read.
 */
export const simProfileSchema = z.strictObject(
  {
    model: z.string({ error: "expected the served model name" }).min(1).default("sim-model"),
    /** JSONL prompts (the round's format) that map a request's content to a prompt id, relative to the profile. */
    promptsFile: z.string({ error: "expected the path of a JSONL prompts file" }).min(1).optional(),
    /** A tokenizer.json whose whole-word tokens the engine streams, relative to the profile. */
    tokenizer: z.string({ error: "expected the path of a tokenizer.json" }).min(1).optional(),
    answer: answerSchema.default(DEFAULT_ANSWER),
    cheats: cheatsSchema.default(NO_CHEATS),
    /** How it answers a quality question set (sim-question-model.ts): which questions are right, and what a patch changes. */
    questions: questionModelSchema.default(DEFAULT_QUESTION_MODEL),
    flavour: z.enum(["sglang", "vllm"], { error: 'expected "sglang" or "vllm"' }).default("sglang"),
    /**
     * The continuous batch's cost: with n streams decoding, each step takes 1 + batchCost · (n − 1)
     * times a lone stream's (see decode-batch.ts); 0 (the default): every stream keeps its own pace.
     */
    batchCost: nonNegative("expected the extra step time per other stream in the batch, such as 0.3").default(0),
    usagePerChunk: z.boolean({ error: "expected true or false" }).default(false),
    defaults: timingSchema.partial().default({}),
    prompts: z.record(z.string(), timingSchema.partial(), { error: "expected a map of prompt id to timings" }).default({}),
    noise: noiseSchema.default({ jitter: 0, runVariance: 0, seed: null }),
    faults: faultsSchema.default({
      crashAtStart: null,
      neverHealthy: false,
      startupDelayMs: 0,
      dieAfterRequests: null,
      dieExitCode: 1,
      holdAfterRequests: null,
      stopEarly: [],
      stopEarlyFraction: 0.25,
      stopEarlyOnStarts: null,
      http500: [],
      malformedSse: [],
    }),
  },
  { error: "expected a JSON object with model, flavour, defaults, prompts and faults" },
);

export type SimProfile = z.infer<typeof simProfileSchema>;
export type SimProfileInput = z.input<typeof simProfileSchema>;
export type SimTiming = z.infer<typeof timingSchema>;
export type SimFaults = SimProfile["faults"];

export const DEFAULT_TIMING: SimTiming = { ttftMs: 20, itlMs: 5, outputTokens: 32, reasoningTokens: 0, tokensPerChunk: 1 };

export type PromptFault = "http500" | "malformed_sse" | null;

/** Everything the server needs to answer one request, decided before the first byte is written. */
export interface ResponsePlan {
  ttftMs: number;
  itlMs: number;
  tokensPerChunk: number;
  reasoningTokens: number;
  contentTokens: number;
  finishReason: "stop" | "length";
  fault: PromptFault;
}

/**
 * Output length is min(profile length, max_tokens), reasoning tokens counting toward the limit
 * first; with `ignoreEos` (a request's ignore_eos, as SGLang, vLLM and llama.cpp honour it) the
 * answer runs on past its own end to max_tokens. A stop-early prompt answers a fraction of its
 * length with finish_reason "stop" even then: it stands for a patch that ends answers early
 * whatever the request asked, which a fixed-length round must catch.
 */
export function planResponse(
  profile: SimProfile,
  promptId: string | null,
  maxTokens: number,
  thinking: boolean,
  timeFactor = 1,
  start = 0,
  ignoreEos = false,
): ResponsePlan {
  const override = promptId !== null ? profile.prompts[promptId] : undefined;
  const timing: SimTiming = { ...DEFAULT_TIMING, ...profile.defaults, ...override };
  const faults = profile.faults;
  const reasoningWanted = thinking ? timing.reasoningTokens : 0;
  // Without a limit there is no length to run on to: the answer ends where it would.
  const fixedLength = ignoreEos && maxTokens < Number.MAX_SAFE_INTEGER;
  let wanted = fixedLength ? Math.max(maxTokens, reasoningWanted + timing.outputTokens) : reasoningWanted + timing.outputTokens;
  let finishReason: "stop" | "length" = "stop";
  const stopsThisStart = faults.stopEarlyOnStarts === null || faults.stopEarlyOnStarts.includes(start);
  if (promptId !== null && faults.stopEarly.includes(promptId) && stopsThisStart) {
    wanted = Math.max(1, Math.floor(wanted * faults.stopEarlyFraction));
  }
  // An answer that ran on to the limit ends there, as an engine reports a length-capped answer.
  if (wanted > maxTokens || (fixedLength && wanted === maxTokens)) {
    wanted = maxTokens;
    finishReason = "length";
  }
  const reasoningTokens = Math.min(reasoningWanted, wanted);
  let fault: PromptFault = null;
  if (promptId !== null && faults.http500.includes(promptId)) fault = "http500";
  else if (promptId !== null && faults.malformedSse.includes(promptId)) fault = "malformed_sse";
  return {
    ttftMs: timing.ttftMs * timeFactor,
    itlMs: timing.itlMs * timeFactor,
    tokensPerChunk: timing.tokensPerChunk,
    reasoningTokens,
    contentTokens: wanted - reasoningTokens,
    finishReason,
    fault,
  };
}
