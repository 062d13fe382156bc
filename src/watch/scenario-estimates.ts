import type { RoundEstimate } from "../scoring/pool-round-estimates.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";

/** What a card measured for one of its scenarios (or, for a round without scenarios, the round): the unit the watch follows. */
export interface ScenarioEstimate {
  /** The scenario's name; null for a round without scenarios. */
  name: string | null;
  /** Null when nothing was scored (an engine failed, or every prompt was left out). */
  estimate: RoundEstimate | null;
}

/** How a followed scenario is named to people: a round without scenarios is "the round". */
export function scenarioLabel(name: string | null): string {
  return name ?? "the round";
}

function estimateOf(card: Pick<Scorecard, "roundScore" | "scoreInterval">): RoundEstimate | null {
  if (card.roundScore === null || !(card.roundScore > 0)) return null;
  return {
    score: card.roundScore,
    interval: card.scoreInterval ? { low: card.scoreInterval.low, high: card.scoreInterval.high } : null,
  };
}

/** Each scenario's score and interval, in the card's order; one entry named null for a round without scenarios. */
export function readScenarioEstimates(card: Scorecard): ScenarioEstimate[] {
  if (card.scenarios && card.scenarios.length > 0) {
    return card.scenarios.map((scenario) => ({ name: scenario.name, estimate: estimateOf(scenario.card) }));
  }
  return [{ name: null, estimate: estimateOf(card) }];
}

/** The estimate of one scenario (null: the round without scenarios), or null when the card lacks it or scored nothing. */
export function findScenarioEstimate(estimates: readonly ScenarioEstimate[], name: string | null): RoundEstimate | null {
  return estimates.find((entry) => entry.name === name)?.estimate ?? null;
}
