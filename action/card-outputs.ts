import { decideVerdict } from "../src/scorecard/decide-verdict.js";
import type { ActionResult } from "./main.js";

/** The step's outputs, by the names action.yml declares. */
export function cardOutputs(result: ActionResult): Record<string, string> {
  const { card } = result;
  return {
    "round-score": card.roundScore === null ? "" : String(card.roundScore),
    "gate-passed": String(card.gate.passed),
    verdict: decideVerdict(card).outcome,
    "prompts-scored": String(card.promptsScored),
    "prompts-total": String(card.promptsTotal),
    "failure-kind": card.failure?.kind ?? "",
    "scorecard-json": result.jsonPath,
    "scorecard-md": result.markdownPath,
  };
}
