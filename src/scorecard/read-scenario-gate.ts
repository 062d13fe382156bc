import type { ScenarioGateInput } from "../scoring/combine-scenario-gates.js";
import type { ScenarioResult } from "./scorecard-schema.js";

/** What the scenario rule (combineScenarioGates) reads of a scenario's card: its own gate, its score and its interval. */
export function readScenarioGate({ name, card }: ScenarioResult): ScenarioGateInput {
  return {
    name,
    ownGate: { passed: card.gate.passed, reason: card.gate.reason },
    score: card.roundScore,
    interval: card.scoreInterval ? { low: card.scoreInterval.low, high: card.scoreInterval.high } : null,
  };
}
