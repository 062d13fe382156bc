import { type RunnerFault, findRunnerFault } from "./find-runner-fault.js";
import type { Scorecard } from "./scorecard-schema.js";

/**
 * - `pass`: the gate passed.
 * - `fail`: the patch did not earn a pass (too slow, too many prompts unscored, the candidate crashed).
 * - `none`: no verdict on the patch at all: something else failed, so the round measured nothing about it.
 */
export type VerdictOutcome = "pass" | "fail" | "none";

/** Who failed instead of the patch, when there is no verdict. */
export type NoVerdictCause = "infrastructure" | "image" | "baseline" | "runner" | "nothing_compared";

export interface Verdict {
  outcome: VerdictOutcome;
  /** Set exactly when `outcome` is `none`. */
  cause: NoVerdictCause | null;
  /** Set when the cause is the runner: what held its GPU, for the maintainers. */
  runnerFault: RunnerFault | null;
}

/**
 * The verdict on the patch, for the card's headline, the check run's conclusion and title, and the
 * action's outcome alike. A round that another party spoiled (the infrastructure, the baseline, a
 * runner whose GPU was taken) gives no verdict rather than blaming the patch; it never passes either.
 */
export function decideVerdict(card: Scorecard): Verdict {
  const none = (cause: NoVerdictCause, runnerFault: RunnerFault | null = null): Verdict => ({ outcome: "none", cause, runnerFault });
  if (card.failure?.kind === "infrastructure") return none("infrastructure");
  // The engine image cannot be brought to the base commit: a setup to fix, before any engine ran.
  if (card.failure?.kind === "image_base_mismatch") return none("image");
  if (card.failure?.engine === "baseline") return none("baseline");
  const runnerFault = findRunnerFault(card);
  if (runnerFault) return none("runner", runnerFault);
  if (card.roundScore === null && !card.failure && card.promptsTotal > 0 && card.excluded === card.promptsTotal)
    return none("nothing_compared");
  return { outcome: card.gate.passed ? "pass" : "fail", cause: null, runnerFault: null };
}
