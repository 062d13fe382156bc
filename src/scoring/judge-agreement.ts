import { formatPercent } from "./format-speedup.js";

/** Default of bench.minPromptAgreement: an answer that parts must agree with the baseline's on more than half of k. */
export const DEFAULT_MIN_PROMPT_AGREEMENT = 0.5;
/** Default of bench.agreementTokens: the answers must agree on at least their first 16 tokens. */
export const DEFAULT_AGREEMENT_TOKENS = 16;

/** The per-prompt agreement rules, as the round set them (bench.agreementTokens, bench.minPromptAgreement). */
export interface AgreementRules {
  /** The first this many tokens must match; 0 turns the check off. */
  agreementTokens: number;
  /** An answer that parts must agree on more than this share of k; 0 turns the check off. */
  minPromptAgreement: number;
}

/**
 * Why two answers that part after `agreedTokens` of the compared length `k` are not the same answer,
 * or null when they are close enough to time. The first `agreementTokens` must match, and an answer
 * that parts must have agreed on more than `minPromptAgreement` of k: otherwise the candidate answered
 * something else, and the tokens it streamed after parting (filler costs no decode work, and a stream
 * that leaves the batch speeds up the others) are not the baseline's work. A fresh round, a merge and
 * the app's re-gate all decide here, from the same two numbers the card keeps.
 */
export function judgeAgreement(agreedTokens: number, k: number, rules: AgreementRules): string | null {
  // Not parting within k (one answer is the start of the other, or they are equal) is full agreement.
  if (k <= 0 || agreedTokens >= k) return null;
  const at = `answers part at token ${agreedTokens + 1} of ${k}`;
  if (rules.agreementTokens > 0 && agreedTokens < Math.min(rules.agreementTokens, k)) {
    return `${at}, within the first ${rules.agreementTokens} that must match`;
  }
  const share = agreedTokens / k;
  if (rules.minPromptAgreement > 0 && share <= rules.minPromptAgreement) {
    return (
      `${at}: they agree on ${formatPercent(share)} of it, no more than bench.minPromptAgreement ` +
      `${formatPercent(rules.minPromptAgreement)}`
    );
  }
  return null;
}
