import { type AnswerComparison, compareAnswers, findInflatedClaims } from "./compare-answers.js";
import { DEFAULT_AGREEMENT_TOKENS, DEFAULT_MIN_PROMPT_AGREEMENT, judgeAgreement } from "./judge-agreement.js";
import { type CompletedRequest, type RequestRecord, timeToTokens } from "./request-record.js";
import { countSlack } from "./token-slack.js";

/**
 * "diverged" and "implausible" come from the integrity checks (an answer that is not the baseline's, or
 * token counts no real stream could hold): like "below_tolerance" and "zeroed" they score 0 and count as unscored.
 */
export type PromptStatus = "scored" | "below_tolerance" | "diverged" | "implausible" | "zeroed" | "excluded";

/** The statuses that score 0: the candidate was asked and gave no comparable answer. */
export const UNSCORED_STATUSES: ReadonlySet<PromptStatus> = new Set(["below_tolerance", "diverged", "implausible", "zeroed"]);

export interface PromptScore {
  status: PromptStatus;
  /** What counts toward the round: the speedup when scored, 0 when zeroed, below tolerance, diverged or implausible, null when excluded. */
  score: number | null;
  /** T_b(k) / T_c(k); null when the candidate was not measured at equal length. */
  speedup: number | null;
  /** The output length both engines are timed at, k = min(n_b, n_c), whether or not their answers part within it. */
  comparedTokens: number | null;
  reason: string | null;
  /**
   * The share of the compared length over which the candidate gave the baseline's answer (common
   * prefix / k), when both answered and their texts were recorded.
   */
  agreement?: number | null;
  /** Tokens both answers share from the start, at most k; with `agreement`. */
  agreedTokens?: number | null;
  /** What a diverged or implausible status rests on, for the card; absent otherwise. */
  evidence?: StatusEvidence;
}

/**
 * What a diverged or implausible status rests on, kept on the card so that anyone can check it
 * without the answers' full text: where they part, short quotes of both, and the counts each engine
 * claimed next to those it streamed.
 */
export interface StatusEvidence {
  /** The 1-based token at which the answers part; null when they were not compared or do not part. */
  partsAt: number | null;
  /** Bounded quotes of both answers from just before where they part (compareAnswers). */
  baselineExcerpt: string | null;
  candidateExcerpt: string | null;
  /** Each engine's own usage count of its answer, beside the counts the run keeps (baselineTokens, candidateTokens). */
  baselineClaimed: number | null;
  candidateClaimed: number | null;
}

export { DEFAULT_AGREEMENT_TOKENS };

export interface ScorePromptOptions {
  /** The candidate must give the baseline's first this many tokens; 0 turns the check off. Default 16. */
  agreementTokens?: number;
  /** An answer that parts must agree with the baseline's on more than this share of k; 0 turns it off. Default 0.5. */
  minPromptAgreement?: number;
}

function percent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10}%`;
}

/** "; the engine claimed N" when the engine's own count of its answer is far from speedgate's. */
function claimNote(record: CompletedRequest): string {
  const claimed = record.claimedTokens;
  if (record.countedBy !== "tokenizer" || claimed === null || claimed === undefined) return "";
  if (Math.abs(claimed - record.outputTokens) <= countSlack(record.outputTokens)) return "";
  return `; the engine claimed ${claimed}`;
}

function agreementOf(comparison: AnswerComparison | null, k: number): { agreement: number | null; agreedTokens: number | null } {
  if (!comparison) return { agreement: null, agreedTokens: null };
  if (!comparison.parted || k === 0) return { agreement: 1, agreedTokens: Math.min(comparison.commonTokens, k) };
  const agreed = Math.min(comparison.commonTokens, k);
  return { agreement: agreed / k, agreedTokens: agreed };
}

function evidenceOf(baseline: CompletedRequest, candidate: CompletedRequest, comparison: AnswerComparison | null): StatusEvidence {
  return {
    partsAt: comparison?.parted ? comparison.commonTokens + 1 : null,
    baselineExcerpt: comparison?.excerpts?.baseline ?? null,
    candidateExcerpt: comparison?.excerpts?.candidate ?? null,
    baselineClaimed: baseline.claimedTokens ?? null,
    candidateClaimed: candidate.claimedTokens ?? null,
  };
}

/**
 * The scoring rule for one prompt, for one run of each engine. Both engines are timed at the same
 * output length, so a candidate cannot buy speed by answering less; one that answers much less
 * scores nothing. With temperature 0 it must also give the baseline's answer: one that parts from
 * it within the first `agreementTokens` tokens, or agrees on no more than `minPromptAgreement` of k,
 * scores nothing (diverged), and one whose own token counts cannot be true scores nothing
 * (implausible). An answer that parts later is still timed at k: both engines had to produce that
 * many tokens, and shrinking the length to the shared start would time a cheat's shared start while
 * its filler, free of decode work, sped up every other request in the batch.
 */
export function scorePrompt(
  baseline: RequestRecord | undefined,
  candidate: RequestRecord | undefined,
  tolerance: number,
  options: ScorePromptOptions = {},
): PromptScore {
  const rules = { agreementTokens: options.agreementTokens ?? DEFAULT_AGREEMENT_TOKENS, minPromptAgreement: options.minPromptAgreement ?? DEFAULT_MIN_PROMPT_AGREEMENT };
  if (!baseline || !baseline.ok) {
    const why = baseline ? baseline.reason : "the baseline engine was not measured on this prompt";
    return { status: "excluded", score: null, speedup: null, comparedTokens: null, reason: `baseline failed: ${why}` };
  }
  if (baseline.implausible) {
    return {
      status: "excluded",
      score: null,
      speedup: null,
      comparedTokens: null,
      reason: `the baseline's own token counts cannot be true (${baseline.implausible}); set bench.tokenizer so speedgate counts`,
    };
  }
  const baselineTokens = baseline.outputTokens;
  if (baselineTokens === 0) {
    // Equal length would be zero tokens: there is no speed to compare, only how long each took to say nothing.
    return { status: "excluded", score: null, speedup: null, comparedTokens: null, reason: "the baseline answered 0 tokens: nothing to compare at equal length" };
  }
  if (!candidate || !candidate.ok) {
    const why = candidate ? candidate.reason : "the candidate engine was not measured on this prompt";
    return { status: "zeroed", score: 0, speedup: null, comparedTokens: null, reason: why };
  }
  const inflated = candidate.implausible ?? findInflatedClaims(baseline, candidate);
  if (inflated) {
    const evidence = evidenceOf(baseline, candidate, compareAnswers(baseline, candidate));
    return { status: "implausible", score: 0, speedup: null, comparedTokens: null, reason: `token counts cannot be true: ${inflated}`, evidence };
  }
  const candidateTokens = candidate.outputTokens;
  if (candidateTokens < tolerance * baselineTokens) {
    return {
      status: "below_tolerance",
      score: 0,
      speedup: null,
      comparedTokens: null,
      reason: `answered ${candidateTokens} of ${baselineTokens} tokens (tolerance ${percent(tolerance)})${claimNote(candidate)}`,
    };
  }
  const k = Math.min(baselineTokens, candidateTokens);
  const comparison = compareAnswers(baseline, candidate);
  const { agreement, agreedTokens } = agreementOf(comparison, k);
  const agreementFields = comparison ? { agreement, agreedTokens } : {};
  const parting = comparison?.parted && agreedTokens !== null ? judgeAgreement(agreedTokens, k, rules) : null;
  if (parting !== null) {
    const where = comparison?.excerpts ? `: baseline ${comparison.excerpts.baseline}, candidate ${comparison.excerpts.candidate}` : "";
    return {
      status: "diverged",
      score: 0,
      speedup: null,
      comparedTokens: k,
      reason: `${parting}${where}`,
      ...agreementFields,
      evidence: evidenceOf(baseline, candidate, comparison),
    };
  }
  // A zero duration cannot happen on a real clock; the floor keeps a broken record from dividing by zero.
  const speedupAt = (tokens: number): number => timeToTokens(baseline, tokens) / Math.max(timeToTokens(candidate, tokens), 1e-6);
  // Answers that part are scored no faster than over the tokens they share (see runSpeedup).
  const parts = agreedTokens !== null && agreedTokens < k;
  const speedup = parts ? Math.min(speedupAt(k), speedupAt(Math.max(1, agreedTokens))) : speedupAt(k);
  return { status: "scored", score: speedup, speedup, comparedTokens: k, reason: null, ...agreementFields };
}
