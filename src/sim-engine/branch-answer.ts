import type { SimAnswer } from "./sim-integrity-profile.js";
import type { ResponsePlan } from "./sim-profile.js";

/**
 * Which continuation one request of a bistable prompt takes (answer.branches): null for the first
 * (every request of a prompt that is not bistable, and a request no prompt matches), else the token at
 * which the second continuation starts. The plan is changed to that continuation's length: it runs on
 * for `lengthFactor` times the first's tokens after the point, ending on its own ("stop") or at the
 * request's max_tokens ("length").
 */
export function takeBranch(
  answer: SimAnswer,
  plan: ResponsePlan,
  promptIndex: number | null,
  maxTokens: number,
  draw: () => number,
): number | null {
  const branches = answer.branches;
  if (!branches || promptIndex === null || (promptIndex + 1) % branches.every !== 0) return null;
  // Drawn for every request of a bistable prompt, whichever way it goes, so the draws of the next requests do not shift.
  const second = draw() < branches.probability;
  const total = plan.reasoningTokens + plan.contentTokens;
  const at = Math.floor(branches.atFraction * total);
  if (!second || at >= total) return null;
  const wanted = at + Math.max(1, Math.round((total - at) * branches.lengthFactor));
  const length = Math.min(wanted, maxTokens);
  plan.finishReason = wanted > maxTokens ? "length" : "stop";
  plan.contentTokens = Math.max(0, length - plan.reasoningTokens);
  return at;
}
