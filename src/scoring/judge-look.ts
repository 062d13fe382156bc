import type { SequentialResult } from "./decide-sequential.js";

/**
 * Why a round with a run budget stopped after its latest look, or null while it goes on:
 * - `failure`: an engine (or what ran it) failed;
 * - `integrity`: a reason that more runs do not fix keeps the gate closed;
 * - `decided`: the sequential test passed and nothing else keeps the gate closed;
 * - `ruled-out`: the sequential test ruled out the speedup the budget is meant to detect;
 * - `budget`: the budget's last run is done.
 */
export type LookStop = "failure" | "integrity" | "decided" | "ruled-out" | "budget";

export interface LookFacts {
  /** An engine or the infrastructure failed. */
  failed: boolean;
  /** Fewer prompts were compared than gate.minPrompts, or the calibration does not fit the round: runs change neither. */
  unfixable: boolean;
  /** Reasons other than the rule that keep the gate closed (cuts, partings, agreement, unexplained answers…). */
  integrityReasons: number;
  /**
   * Reasons of the minority-regression rule (regressionReasons): speed measured over the runs so far, which more runs may
   * change, so they stop no round; they keep a pass from being decided.
   */
  speedReasons?: number;
  /**
   * Whether the baseline gave some prompt more than one answer over the runs: then a later run may show
   * the candidate's answer as one the baseline gives, and cuts, partings and unexplained answers are
   * judged again at the next look instead of ending the round.
   */
  baselineVaries: boolean;
  sequential: Pick<SequentialResult, "decision" | "runs" | "budget">;
}

/**
 * Whether a round with a run budget stops after this look, and why. Reasons more runs cannot fix
 * stop it at once: an engine failure, too few prompts, a calibration that does not fit, and, while the
 * baseline's answers never varied, cuts, partings, disagreement and unexplained answers (on a
 * deterministic engine a cut stays a cut). A pass needs the rule and every other reason clear.
 */
export function judgeLook(facts: LookFacts): LookStop | null {
  const { sequential } = facts;
  if (facts.failed) return "failure";
  if (facts.unfixable) return "integrity";
  if (facts.integrityReasons > 0 && !facts.baselineVaries) return "integrity";
  if (sequential.decision === "pass" && facts.integrityReasons === 0 && (facts.speedReasons ?? 0) === 0) return "decided";
  if (sequential.decision === "fail") return "ruled-out";
  if (sequential.runs >= sequential.budget.max) return "budget";
  return null;
}
