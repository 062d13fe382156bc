import { type AnswerComparison, compareAnswers, findInflatedClaims } from "./compare-answers.js";
import { type AgreementRules, DEFAULT_AGREEMENT_TOKENS, DEFAULT_MIN_PROMPT_AGREEMENT, judgeAgreement } from "./judge-agreement.js";
import { type CompletedRequest, type RequestRecord, timeToTokens } from "./request-record.js";
import { speedupFromTimes } from "./speedup-from-times.js";
import type { CandidateBranch } from "./match-branches.js";
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
  /**
   * How the candidate's answer relates to every answer the baseline gave the prompt over the round's
   * runs (matchBranches); `baseline` is then the answer it names as the reference. Absent or null: the
   * two records alone decide, as for records that keep no text.
   */
  branch?: CandidateBranch | null;
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
  const rules = {
    agreementTokens: options.agreementTokens ?? DEFAULT_AGREEMENT_TOKENS,
    minPromptAgreement: options.minPromptAgreement ?? DEFAULT_MIN_PROMPT_AGREEMENT,
  };
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
    return {
      status: "excluded",
      score: null,
      speedup: null,
      comparedTokens: null,
      reason: "the baseline answered 0 tokens: nothing to compare at equal length",
    };
  }
  if (!candidate || !candidate.ok) {
    const why = candidate ? candidate.reason : "the candidate engine was not measured on this prompt";
    return { status: "zeroed", score: 0, speedup: null, comparedTokens: null, reason: why };
  }
  const inflated = candidate.implausible ?? findInflatedClaims(baseline, candidate);
  if (inflated) {
    const evidence = evidenceOf(baseline, candidate, compareAnswers(baseline, candidate));
    return {
      status: "implausible",
      score: 0,
      speedup: null,
      comparedTokens: null,
      reason: `token counts cannot be true: ${inflated}`,
      evidence,
    };
  }
  if (options.branch) return scoreOnBranch(baseline, candidate, options.branch, tolerance, rules);
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
  const speedupAt = (tokens: number): number => speedupFromTimes(timeToTokens(baseline, tokens), timeToTokens(candidate, tokens));
  // Answers that part are scored no faster than over the tokens they share (see runSpeedup).
  const parts = agreedTokens !== null && agreedTokens < k;
  const speedup = parts ? Math.min(speedupAt(k), speedupAt(Math.max(1, agreedTokens))) : speedupAt(k);
  return { status: "scored", score: speedup, speedup, comparedTokens: k, reason: null, ...agreementFields };
}

/**
 * The scoring rule for an answer held to every answer the baseline gave the prompt (matchBranches).
 * One that a baseline answer is the start of is timed at that answer's length against it, whichever
 * run gave it: the engine's own variation is neither a cut nor a divergence. One that no baseline
 * answer explains is timed only over what it shares with the answer it follows longest, since what it
 * streamed after parting is not the baseline's work, and it is counted as unexplained by the gate
 * (leaving the batch early speeds up the other requests, so timing alone does not make filler worthless).
 * It scores 0 when it stopped below `tolerance` of that answer, or parted early (within the first
 * `agreementTokens`, or before more than `minPromptAgreement` of it) on a prompt whose answers do not
 * vary: the baseline answered it one way in every run and so did the candidate, in another. Where the
 * answers vary (either engine gave it more than one), or the baseline's own answers part at that very
 * token, an early parting is timed up to the parting instead: an honest candidate of a
 * nondeterministic engine takes continuations its baseline happened not to take in its runs, and a
 * zero for that would be noise in the interval, not evidence. The gate's unexplained rule and its
 * median agreement weigh those partings over the whole round.
 */
function scoreOnBranch(
  baseline: CompletedRequest,
  candidate: CompletedRequest,
  branch: CandidateBranch,
  tolerance: number,
  rules: AgreementRules,
): PromptScore {
  const speedupAt = (tokens: number): number => speedupFromTimes(timeToTokens(baseline, tokens), timeToTokens(candidate, tokens));
  const n = { baseline: baseline.outputTokens, candidate: candidate.outputTokens };
  const k = Math.min(n.baseline, n.candidate);
  if (branch.match !== "none") {
    const reason = branch.match === "other" ? `the baseline's answer in run ${branch.referenceRun + 1}: the engine's own variation` : null;
    return { status: "scored", score: speedupAt(k), speedup: speedupAt(k), comparedTokens: k, reason, agreement: 1, agreedTokens: k };
  }
  if (branch.cut) {
    if (n.candidate < tolerance * n.baseline) {
      return {
        status: "below_tolerance",
        score: 0,
        speedup: null,
        comparedTokens: null,
        reason: `answered ${n.candidate} of ${n.baseline} tokens (tolerance ${percent(tolerance)})${claimNote(candidate)}`,
      };
    }
    const stopped =
      `stopped at token ${n.candidate} where every baseline answer it follows ran on (to ${n.baseline}): an end the baseline never ` +
      `gives`;
    return {
      status: "scored",
      score: speedupAt(k),
      speedup: speedupAt(k),
      comparedTokens: k,
      reason: stopped,
      agreement: 1,
      agreedTokens: k,
    };
  }
  const comparison = compareAnswers(baseline, candidate);
  const agreed = Math.min(branch.agreedTokens, k);
  const evidence = evidenceOf(baseline, candidate, comparison ? { ...comparison, parted: true, commonTokens: agreed } : null);
  const where = comparison?.excerpts ? `: baseline ${comparison.excerpts.baseline}, candidate ${comparison.excerpts.candidate}` : "";
  const early = judgeAgreement(agreed, k, rules);
  if (early !== null && !branch.baselinePartsHere && !branch.answersVary) {
    return {
      status: "diverged",
      score: 0,
      speedup: null,
      comparedTokens: k,
      reason: `${early}${where}`,
      agreement: agreed / k,
      agreedTokens: agreed,
      evidence,
    };
  }
  const speedup = speedupAt(Math.max(1, agreed));
  const own = branch.baselinePartsHere ? ", where the baseline's own answers part too," : "";
  return {
    status: "scored",
    score: speedup,
    speedup,
    comparedTokens: k,
    reason:
      `parted from every answer the baseline gave at token ${agreed + 1} of ${k}${own} and is timed over the ${agreed} tokens they ` +
      `share${where}`,
    agreement: agreed / k,
    agreedTokens: agreed,
    evidence,
  };
}
