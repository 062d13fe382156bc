import { judgeScenario } from "../src/scoring/combine-scenario-gates.js";
import { readScenarioGate } from "../src/scorecard/read-scenario-gate.js";
import { decideVerdict } from "../src/scorecard/decide-verdict.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import type { ActionResult } from "./main.js";

/**
 * Each scenario's name, score and whether it passed (its own bar and gate.maxRegression), as JSON for fromJSON(); "[]" without scenarios.
 */
function scenarioOutput(card: Scorecard): string {
  const maxRegression = card.gate.maxRegression ?? null;
  const scenarios = (card.scenarios ?? []).map((scenario) => ({
    name: scenario.name,
    score: scenario.card.roundScore,
    passed: judgeScenario(readScenarioGate(scenario), { maxRegression }).passed,
  }));
  return JSON.stringify(scenarios);
}

/** The step's outputs, by the names action.yml declares. round-score is the headline's: the first scenario's, in a round with scenarios. */
export function cardOutputs(result: ActionResult): Record<string, string> {
  const { card } = result;
  return {
    "round-score": card.roundScore === null ? "" : String(card.roundScore),
    "gate-passed": String(card.gate.passed),
    verdict: decideVerdict(card).outcome,
    "prompts-scored": String(card.promptsScored),
    "prompts-total": String(card.promptsTotal),
    "failure-kind": card.failure?.kind ?? "",
    scenarios: scenarioOutput(card),
    "scorecard-json": result.jsonPath,
    "scorecard-md": result.markdownPath,
  };
}
