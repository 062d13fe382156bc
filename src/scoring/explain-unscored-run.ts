import { type AgreementRules, judgeAgreement } from "./judge-agreement.js";
import type { PromptStatus } from "./score-prompt.js";

/**
 * The baseline's least agreeing pair of its own answers to one prompt over a round's runs: the
 * tokens they share from the start and the length they are compared at (the shorter one's).
 */
export interface BaselineSelf {
  agreedTokens: number;
  comparedTokens: number;
}

export interface ExplainRules extends AgreementRules {
  tolerance: number;
}

/** What deciding one unscored run needs: its status and the candidate's length. */
export interface UnscoredRun {
  status: PromptStatus;
  candidateTokens?: number | null;
}

/**
 * Whether the baseline's own answers to the prompt, over the round's runs, explain an unscored run:
 * the baseline against itself would have scored it the same way. A cut (below_tolerance) is
 * explained when the baseline's own answers range from under `tolerance` of its longest up to at
 * least the candidate's length (a batch-dependent early stop); a parting (diverged) when the
 * baseline's own least agreeing pair would be diverged under the same rules. Anything else, and any
 * run with nothing to compare against (one run, no texts kept), is not explained: a cut or a parting
 * the baseline never shows is the patch's doing, and such answers leave the batch early and speed up
 * the rest, so they are not free.
 */
export function isExplainedRun(
  run: UnscoredRun,
  baselineLengths: readonly number[],
  self: BaselineSelf | null,
  rules: ExplainRules,
): boolean {
  if (run.status === "below_tolerance") {
    if (baselineLengths.length < 2 || run.candidateTokens === null || run.candidateTokens === undefined) return false;
    const shortest = Math.min(...baselineLengths);
    const longest = Math.max(...baselineLengths);
    return shortest < rules.tolerance * longest && run.candidateTokens >= shortest;
  }
  if (run.status === "diverged") return self !== null && judgeAgreement(self.agreedTokens, self.comparedTokens, rules) !== null;
  return false;
}
