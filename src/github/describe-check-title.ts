import type { describeVerdict } from "../scorecard/render/describe-card.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";

/**
 * The check run's title for a re-gated card. A round with scenarios is titled by its combined gate
 * ("❌ 2 of 3 scenarios passed; improved: decode-c1; regressed: chat-rate16; failed: chat-rate16"):
 * the headline scenario's score alone would hide the scenario that kept the check from passing. A
 * round without a verdict (the baseline, the runner or the infrastructure failed) keeps the title
 * that says who failed instead of the patch.
 */
export function describeCheckTitle(card: Scorecard, verdict: ReturnType<typeof describeVerdict>): string {
  if (!card.scenarios || verdict.outcome === "none") return verdict.headline;
  return `${verdict.passed ? "✅" : "❌"} ${card.gate.reason}`;
}
