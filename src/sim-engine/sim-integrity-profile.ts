import { z } from "zod";
import type { AnswerStyle } from "./answer-text.js";

/*
 * The parts of a sim-engine profile about what it answers rather than how fast: a late divergence
 * an honest kernel change can cause, and the cheats a patch might try, so that tests and dry runs can
 * show what speedgate makes of each.
 */

export const answerSchema = z.strictObject(
  {
    divergeAfterTokens: z
      .number({ error: "expected a whole number of tokens, 0 or more, or null" })
      .int({ error: "expected a whole number of tokens, 0 or more, or null" })
      .min(0, { error: "expected a whole number of tokens, 0 or more, or null" })
      .nullable()
      .default(null),
    /** From this share of each answer's length on, the answer is another; null: never. */
    divergeAfterFraction: z.number({ error: "expected a fraction in (0, 1), or null" }).gt(0).lt(1).nullable().default(null),
    /** Only every this-many-th prompt of the prompts file (the 3rd, 6th, … with 3) diverges; 1: every prompt. */
    divergeEvery: z.number({ error: "expected a whole number, 1 or more" }).int().min(1).default(1),
    /**
     * Nondeterminism as a batching GPU engine shows it at temperature 0: on every `every`-th prompt two
     * next tokens are near a tie at `atFraction` of the answer, and each request takes the second
     * continuation with `probability` (drawn per request, seeded with the noise); that continuation is
     * `lengthFactor` times as long after the point. null: every answer is the same every time.
     */
    branches: z
      .strictObject(
        {
          every: z.number({ error: "expected a whole number, 1 or more" }).int().min(1).default(4),
          atFraction: z.number({ error: "expected a fraction in (0, 1)" }).gt(0).lt(1).default(0.25),
          probability: z.number({ error: "expected a probability in (0, 1)" }).gt(0).lt(1).default(0.5),
          lengthFactor: z.number({ error: "expected a factor in (0, 4]" }).gt(0).max(4).default(0.6),
        },
        { error: "expected { every, atFraction, probability, lengthFactor }" },
      )
      .nullable()
      .default(null),
  },
  { error: "expected an object such as { divergeAfterTokens: 200 }" },
);

const promptIdList = z.array(z.string({ error: "expected prompt ids as strings" }), { error: "expected a list of prompt ids" });
const startNumber = z.number({ error: "expected start numbers, 0 or more" }).int().min(0, { error: "expected start numbers, 0 or more" });

export const cheatsSchema = z.strictObject(
  {
    /** Streams the first token only, then reports the full length in usage. */
    claimTokens: z.boolean({ error: "expected true or false" }).default(false),
    /** Reports usage this many times the tokens streamed. */
    usageFactor: z.number({ error: "expected a factor, 1 or more" }).min(1, { error: "expected a factor, 1 or more" }).default(1),
    /** Streams one word over and over instead of the answer. */
    fillerText: z.boolean({ error: "expected true or false" }).default(false),
    /** Streams the honest answer for this many tokens, then filler ten times as fast; null: never. */
    fillerAfterTokens: z
      .number({ error: "expected a whole number of tokens, 0 or more, or null" })
      .int({ error: "expected a whole number of tokens, 0 or more, or null" })
      .min(0, { error: "expected a whole number of tokens, 0 or more, or null" })
      .nullable()
      .default(null),
    /** Streams the honest answer for this share of its length, then filler at no decode cost (it leaves the batch); null: never. */
    fillerAfterFraction: z.number({ error: "expected a fraction in (0, 1), or null" }).gt(0).lt(1).nullable().default(null),
    /** Answers this many times faster when a request names its prompt (a header or the user field). */
    promptIdSpeedup: z.number({ error: "expected a factor greater than 0, or null" }).gt(0).nullable().default(null),
    /** Answers a request it answered before (the same messages or prompt) this many times faster, as a cache of whole answers would. */
    answerCacheSpeedup: z.number({ error: "expected a factor greater than 0, or null" }).gt(0).nullable().default(null),
    /** Where a request takes the second continuation (answer.branches), streams filler from that point at no decode cost instead. */
    fillerAtBranch: z.boolean({ error: "expected true or false" }).default(false),
    /**
     * The filler (fillerText, fillerAfter…, fillerAtBranch) carries a fresh random tag in every request, so no filler answer matches
     * another, nor any answer of the baseline's.
     */
    uniqueFiller: z.boolean({ error: "expected true or false" }).default(false),
    /** The filler cheats play only on these prompts (ids); null: every prompt. */
    fillerPrompts: promptIdList.nullable().default(null),
    /** The filler cheats play only in these starts of the engine (0-based, --start-counter); null: every start. */
    fillerOnStarts: z.array(startNumber).nullable().default(null),
    /** These prompts (ids) get no decode step while any other stream decodes: every answer exact, but served last. */
    starve: promptIdList.default([]),
  },
  {
    error:
      "expected an object of cheats: claimTokens, usageFactor, fillerText, fillerAfterTokens, fillerAfterFraction, promptIdSpeedup, " +
      "answerCacheSpeedup, fillerAtBranch, uniqueFiller, fillerPrompts, fillerOnStarts, starve",
  },
);

export const DEFAULT_ANSWER = { divergeAfterTokens: null, divergeAfterFraction: null, divergeEvery: 1, branches: null };
export const NO_CHEATS = {
  claimTokens: false,
  usageFactor: 1,
  fillerText: false,
  fillerAfterTokens: null,
  fillerAfterFraction: null,
  promptIdSpeedup: null,
  answerCacheSpeedup: null,
  fillerAtBranch: false,
  uniqueFiller: false,
  fillerPrompts: null,
  fillerOnStarts: null,
  starve: [],
};

/** How much faster the filler after an honest start streams. */
export const LATE_FILLER_SPEEDUP = 10;

export type SimCheats = z.infer<typeof cheatsSchema>;
export type SimAnswer = z.infer<typeof answerSchema>;

/** Which request an answer is for, as far as the cheats that play on some prompts or starts only need to know. */
export interface CheatTarget {
  /** The prompt's id; null for a request no prompt matches (a warm-up). */
  promptId: string | null;
  /** Which start of the engine serves it (0-based, --start-counter). */
  start: number;
  /** A fresh random number for this request: the unique filler's tag. */
  tag: number;
}

/** Whether the filler cheats play on this request (cheats.fillerPrompts, cheats.fillerOnStarts). */
function fillerPlays(cheats: SimCheats, target: CheatTarget | null): boolean {
  if (cheats.fillerPrompts !== null && (target?.promptId == null || !cheats.fillerPrompts.includes(target.promptId))) return false;
  return cheats.fillerOnStarts === null || cheats.fillerOnStarts.includes(target?.start ?? 0);
}

/**
 * How one answer departs from the honest one. `total` is its length in tokens; `promptIndex` the
 * prompt's place in the prompts file (0-based), null for a request no prompt matches (a warm-up),
 * which never drifts, as drift that depends on the prompt would not.
 */
export function answerStyle(
  answer: SimAnswer,
  cheats: SimCheats,
  total: number,
  promptIndex: number | null,
  branchAt: number | null = null,
  target: CheatTarget | null = null,
): AnswerStyle {
  const drifts = promptIndex !== null && (promptIndex + 1) % answer.divergeEvery === 0;
  const fraction = drifts && answer.divergeAfterFraction !== null ? Math.floor(answer.divergeAfterFraction * total) : null;
  const divergeAfterTokens = answer.divergeEvery > 1 && !drifts ? null : (answer.divergeAfterTokens ?? fraction);
  if (!fillerPlays(cheats, target)) return { filler: false, divergeAfterTokens, fillerAfterTokens: null, branchAfterTokens: branchAt };
  const fillerAfterTokens =
    cheats.fillerAfterTokens ?? (cheats.fillerAfterFraction !== null ? Math.floor(cheats.fillerAfterFraction * total) : null);
  const fillerTag = cheats.uniqueFiller ? (target?.tag ?? 0) : null;
  // The filler-at-branch cheat replaces the second continuation with filler; otherwise the answer takes it.
  if (branchAt !== null && cheats.fillerAtBranch)
    return {
      filler: cheats.fillerText,
      divergeAfterTokens,
      fillerAfterTokens: Math.min(branchAt, fillerAfterTokens ?? branchAt),
      branchAfterTokens: null,
      fillerTag,
    };
  return { filler: cheats.fillerText, divergeAfterTokens, fillerAfterTokens, branchAfterTokens: branchAt, fillerTag };
}

/** Headers and fields that would name the prompt, which is what a special-casing engine looks for. */
export const PROMPT_ID_HINTS = ["x-speedgate-prompt-id", "x-prompt-id", "x-request-id"] as const;

/**
 * What an engine that special-cases the benchmark would find naming the prompt in a request: a
 * header, or the `user`, `metadata` or `prompt_id` field. speedgate sends none of them.
 */
export function findPromptIdHint(headers: Record<string, string | string[] | undefined>, body: Record<string, unknown>): string | null {
  for (const name of PROMPT_ID_HINTS) {
    const value = headers[name];
    if (typeof value === "string" && value.length > 0) return `${name}: ${value}`;
  }
  for (const field of ["user", "prompt_id", "metadata"] as const) {
    const value = body[field];
    if (value !== undefined && value !== null && value !== "") return `${field}: ${JSON.stringify(value)}`;
  }
  return null;
}
