import { z } from "zod";
import { count, finiteOrNull, fraction, ratioOrNull, text } from "./card-field-kinds.js";

/*
 * A card's prompts: each prompt's result and every run of it, what an independent scorer recomputes the
 * round from (scorecard-schema.ts holds the card around them). Bounded like the rest: the app reads
 * them from an artifact a pull request's code could have written.
 */

export const PROMPT_STATUSES = ["scored", "below_tolerance", "diverged", "implausible", "zeroed", "excluded"] as const;

export const engineSideSchema = z.object({
  /** speedgate's count when settings.tokenizer is set, else the engine's (bounded by the bytes it streamed). */
  outputTokens: count.nullable(),
  /** The engine's own usage.completion_tokens, recorded whoever counted. */
  claimedTokens: count.nullable().optional(),
  ttftMs: finiteOrNull,
  e2eMs: finiteOrNull,
  finishReason: text(64).nullable(),
  error: text(2_000).nullable(),
});

/** Quotes stay short: compareAnswers cuts 40 characters, JSON escapes can make each up to six. */
const EXCERPT_MAX = 400;

/** What a diverged or implausible run rests on (StatusEvidence): checkable without the answers' full text. */
export const statusEvidenceSchema = z.object({
  partsAt: count.nullable(),
  baselineExcerpt: text(EXCERPT_MAX).nullable(),
  candidateExcerpt: text(EXCERPT_MAX).nullable(),
  baselineClaimed: count.nullable(),
  candidateClaimed: count.nullable(),
});

/**
 * One prompt in one run: what an independent scorer needs to recompute the run's status and score
 * (T_b(k) / T_c(k)) from the card alone. The card's own scores are never read back.
 */
export const promptRunSchema = z.object({
  status: z.enum(PROMPT_STATUSES),
  reason: text(2_000).nullable(),
  /** False when the candidate was never sent the prompt in this run (it had failed before). */
  candidateAttempted: z.boolean(),
  comparedTokens: count.nullable(),
  baselineTokens: count.nullable(),
  candidateTokens: count.nullable(),
  baselineMs: z.number().finite().min(0).nullable(),
  candidateMs: z.number().finite().min(0).nullable(),
  /**
   * Tokens both answers share from the start, at most comparedTokens; null when their texts were not
   * compared. With comparedTokens it decides the agreement rules again. Absent on older cards, which
   * timed a parting answer over its shared start (comparedTokens) instead.
   */
  agreedTokens: count.nullable().optional(),
  /** For answers that part within k: the times at the tokens they share; the run scores no more than over those (runSpeedup). */
  agreedBaselineMs: z.number().finite().min(0).nullable().optional(),
  agreedCandidateMs: z.number().finite().min(0).nullable().optional(),
  /**
   * For a timed run: when each engine's request was sent, in milliseconds from the start of its benchmark run (the baseline's of the
   * run it is timed against), for the round's throughput. Absent on older cards, whose throughput rule is not judged.
   */
  baselineSentMs: z.number().finite().min(0).nullable().optional(),
  candidateSentMs: z.number().finite().min(0).nullable().optional(),
  /** For a diverged or implausible run: what the status rests on. */
  evidence: statusEvidenceSchema.nullable().optional(),
  /**
   * How the candidate's answer relates to every answer the baseline gave the prompt over the round's
   * runs: "same" (this run's is its start), "other" (another run's is: the engine's own variation),
   * "none" (none is: timed only up to where it parts, and counted by the unexplained rule). Absent on
   * older cards and where answers were not compared.
   */
  match: z.enum(["same", "other", "none"]).optional(),
  /** The baseline run (1-based) whose answer the times at k and at the shared tokens are taken from. */
  baselineRun: z.number().int().min(1).max(100).nullable().optional(),
  /** For "none": it parted at a token where two of the baseline's own answers part too (a third continuation, not a failure). */
  baselinePartsHere: z.boolean().optional(),
});

export const promptResultSchema = z.object({
  id: text(256),
  status: z.enum(PROMPT_STATUSES),
  score: ratioOrNull,
  speedup: ratioOrNull,
  comparedTokens: count.nullable(),
  reason: text(2_000).nullable(),
  /** Common start of the two answers over the compared length k; null when not compared. */
  agreement: fraction.nullable().optional(),
  agreedTokens: count.nullable().optional(),
  /** The baseline's least agreeing pair of its own answers over the runs; null with one run, absent on older cards. */
  baselineSelf: z.object({ agreedTokens: count, comparedTokens: count }).nullable().optional(),
  /**
   * Which pooled answers are the start of each (baseline runs first, then the candidate's; null: no
   * answer): what the shuffle test of the unexplained rule reads. Absent on older cards.
   */
  answerPrefixes: z
    .array(z.array(z.number().int().min(0).max(199)).max(200).nullable())
    .max(200)
    .refine((answers) => answers.length % 2 === 0, {
      error: "expected the baseline's and the candidate's answers of every run: an even count",
    })
    .optional(),
  /** Distinct answers the baseline gave the prompt over the runs: 2 or more on a prompt where the engine's answers vary. */
  baselineAnswers: count.nullable().optional(),
  /** The first run's answers, for the card's per-prompt columns. */
  baseline: engineSideSchema.nullable(),
  candidate: engineSideSchema.nullable(),
  runs: z.array(promptRunSchema).max(100),
});

/** The baseline's disagreement with itself over a round's runs, and the unscored candidate runs within it (findBaselineVariation). */
export const answerVariationSchema = z.object({
  promptsCompared: count,
  promptsVaried: count,
  explained: z
    .array(
      z.object({
        id: text(256),
        run: z.number().int().min(1).max(100),
        status: z.enum(["below_tolerance", "diverged"]),
        candidateTokens: count.nullable(),
        baselineMin: count,
        baselineMax: count,
        baselinePartsAt: count.nullable(),
      }),
    )
    .max(100_000),
});

export type PromptResult = z.infer<typeof promptResultSchema>;
export type EngineSide = z.infer<typeof engineSideSchema>;
export type PromptRun = z.infer<typeof promptRunSchema>;
export type AnswerVariation = z.infer<typeof answerVariationSchema>;
