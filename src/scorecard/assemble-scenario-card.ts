import { combineScenarioGates } from "../scoring/combine-scenario-gates.js";
import { MAX_GATE_REASONS } from "../scoring/evaluate-gate.js";
import { formatTimes } from "../scoring/format-speedup.js";
import { readScenarioGate } from "./read-scenario-gate.js";
import type { ScenarioCard, ScenarioResult, Scorecard } from "./scorecard-schema.js";

/**
 * The card of a round with scenarios, from its scenarios' cards: the first scenario's figures at the
 * top (the headline), the combined gate (combineScenarioGates), and every scenario below. A fresh
 * round, a shard merge and the app's re-gate all build it here, so what the top level says can always
 * be derived again.
 */
export function assembleScenarioCard(
  scenarios: readonly ScenarioResult[],
  maxRegression: number | null,
  extra: Pick<Scorecard, "timeSpent"> = {},
): Scorecard {
  const headline = scenarios[0];
  if (!headline) throw new Error("a round with scenarios needs at least one scenario");
  const combined = combineScenarioGates(scenarios.map(readScenarioGate), { maxRegression });
  return {
    ...headline.card,
    ...extra,
    gate: {
      ...headline.card.gate,
      maxRegression,
      passed: combined.passed,
      reason: combined.reason,
      reasons: combined.reasons.slice(0, MAX_GATE_REASONS),
      // The headline's rule is one scenario's; the combined gate has none of its own.
      rule: null,
    },
    scenarios: [...scenarios],
  };
}

/** The scenario's score and interval in a short phrase: "1.12× [1.08×, 1.15×]". */
export function describeScenarioScore(card: ScenarioCard): string {
  if (card.roundScore === null) return "—";
  const interval = card.scoreInterval ? ` [${formatTimes(card.scoreInterval.low)}, ${formatTimes(card.scoreInterval.high)}]` : "";
  return `${formatTimes(card.roundScore)}${interval}`;
}
