import { delinkPlainText } from "../safe-text/delink-plain-text.js";
import type { describeVerdict } from "../scorecard/render/describe-card.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";

/**
 * The check run's title for a re-gated card. A round with scenarios is titled by its combined gate
 * ("❌ 2 of 3 scenarios passed; improved: decode-c1; regressed: chat-rate16; failed: chat-rate16"):
 * the headline scenario's score alone would hide the scenario that kept the check from passing. A
 * round without a verdict (the baseline, the runner or the infrastructure failed) keeps the title
 * that says who failed instead of the patch. The title is plain text that may quote an engine's line:
 * no URL or e-mail address in it stays whole.
 */
export function describeCheckTitle(card: Scorecard, verdict: ReturnType<typeof describeVerdict>): string {
  if (!card.scenarios || verdict.outcome === "none") return delinkPlainText(verdict.headline);
  return delinkPlainText(`${verdict.passed ? "✅" : "❌"} ${card.gate.reason}`);
}
