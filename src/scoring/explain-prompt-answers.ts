import type { RunOutcome } from "./aggregate-prompt-runs.js";
import { type BaselineSelf, type ExplainRules, isExplainedRun } from "./explain-unscored-run.js";
import { type AnswerPrefixes, isUnexplainedAnswer } from "./pooled-answers.js";
import type { PromptStatus } from "./score-prompt.js";

/** How the gate's reason names an answer the baseline's do not explain: its status, or "parted" for one timed up to a parting. */
export type UnexplainedKind = PromptStatus | "parted";

/** What explaining a prompt's answers reads of it: its outcome in each run and what the round kept of the baseline's answers. */
export interface PromptAnswersKept {
  runs: readonly RunOutcome[];
  baselineSelf?: BaselineSelf | null;
  answerPrefixes?: AnswerPrefixes | null;
}

/** Which of a prompt's candidate answers the baseline's own answers explain, as the gate's unexplained and agreement rules read it. */
export interface PromptExplanation {
  /** How the candidate's answer in `run` (0-based) is named when no baseline answer explains it; null when one does. */
  unexplained(run: number, outcome: RunOutcome): UnexplainedKind | null;
  /** The prompt's agreement as the gate's median rule holds it. */
  agreementForGate(agreement: number): number;
  /** The pooled answers' relation, for the shuffle test; null on a card from before it was kept. */
  prefixes: AnswerPrefixes | null;
}

/**
 * A prompt whose answers were held to every answer the baseline gave (answerPrefixes): an answer is
 * unexplained when no baseline answer is its start, and its agreement already counts the engine's
 * own branches. Cards from before that was kept are read by the rule they were made with.
 */
export function explainPromptAnswers(prompt: PromptAnswersKept, rules: ExplainRules): PromptExplanation {
  const prefixes = prompt.answerPrefixes;
  if (!prefixes) return explainBeforeAnswerPrefixes(prompt, rules);
  return {
    unexplained: (run, outcome) => (isUnexplainedAnswer(prefixes, run) ? (outcome.status === "scored" ? "parted" : outcome.status) : null),
    agreementForGate: (agreement) => agreement,
    prefixes,
  };
}

/**
 * The rule of cards from before answerPrefixes, when each candidate answer was held to the same run's
 * baseline answer only: a cut or a parting is explained when the baseline's own lengths and least
 * agreeing pair over the runs would have scored it alike (isExplainedRun), and a prompt that parts no
 * earlier than the baseline's own least agreeing pair counts as agreeing in full. The same engine
 * answering the same prompt differently when the batch differs is not the patch's doing; with one run
 * there is no such pair, and the agreement stands as measured.
 */
function explainBeforeAnswerPrefixes(prompt: PromptAnswersKept, rules: ExplainRules): PromptExplanation {
  const lengths = prompt.runs.map((run) => run.baselineTokens).filter((value): value is number => typeof value === "number");
  const self = prompt.baselineSelf ?? null;
  return {
    unexplained: (_run, outcome) =>
      (outcome.status === "below_tolerance" || outcome.status === "diverged") && !isExplainedRun(outcome, lengths, self, rules)
        ? outcome.status
        : null,
    agreementForGate: (agreement) => {
      if (self === null || self.comparedTokens === 0) return agreement;
      return agreement >= self.agreedTokens / self.comparedTokens ? 1 : agreement;
    },
    prefixes: null,
  };
}
