import { type RequestRecord, timeToTokens } from "./request-record.js";

/**
 * "diverged" and "implausible" come from the integrity checks (an answer that is not the baseline's, or
 * timings no real stream could have): like "below_tolerance" and "zeroed" they score 0 and count as unscored.
 */
export type PromptStatus = "scored" | "below_tolerance" | "diverged" | "implausible" | "zeroed" | "excluded";

/** The statuses that score 0: the candidate was asked and gave no comparable answer. */
export const UNSCORED_STATUSES: ReadonlySet<PromptStatus> = new Set(["below_tolerance", "diverged", "implausible", "zeroed"]);

export interface PromptScore {
  status: PromptStatus;
  /** What counts toward the round: the speedup when scored, 0 when zeroed or below tolerance, null when excluded. */
  score: number | null;
  /** T_b(k) / T_c(k); null when the candidate was not measured at equal length. */
  speedup: number | null;
  /** k = min(n_b, n_c): the output length both engines are timed at. */
  comparedTokens: number | null;
  reason: string | null;
}

function percent(fraction: number): string {
  return `${Math.round(fraction * 1000) / 10}%`;
}

/**
 * The scoring rule for one prompt. Both engines are timed at the same output length, so a candidate
 * cannot buy speed by answering less; one that answers much less scores nothing.
 */
export function scorePrompt(
  baseline: RequestRecord | undefined,
  candidate: RequestRecord | undefined,
  tolerance: number,
): PromptScore {
  if (!baseline || !baseline.ok) {
    const why = baseline ? baseline.reason : "the baseline engine was not measured on this prompt";
    return { status: "excluded", score: null, speedup: null, comparedTokens: null, reason: `baseline failed: ${why}` };
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
  const candidateTokens = candidate.outputTokens;
  if (candidateTokens < tolerance * baselineTokens) {
    return {
      status: "below_tolerance",
      score: 0,
      speedup: null,
      comparedTokens: null,
      reason: `answered ${candidateTokens} of ${baselineTokens} tokens (tolerance ${percent(tolerance)})`,
    };
  }
  const k = Math.min(baselineTokens, candidateTokens);
  const baselineTime = timeToTokens(baseline, k);
  // A zero duration cannot happen on a real clock; the floor keeps a broken record from dividing by zero.
  const candidateTime = Math.max(timeToTokens(candidate, k), 1e-6);
  const speedup = baselineTime / candidateTime;
  return { status: "scored", score: speedup, speedup, comparedTokens: k, reason: null };
}
