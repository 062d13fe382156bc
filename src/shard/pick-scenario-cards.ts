import type { ScenarioCard, Scorecard } from "../scorecard/scorecard-schema.js";

/**
 * Each shard's card of one scenario, in the shards' order, marked with its shard: a shard runs its
 * slice of every scenario's prompts, so a scenario's cards merge as the cards of a round without
 * scenarios do. A shard without that scenario gives none (find-shard-problems refuses such shards first).
 */
export function pickScenarioCards(cards: readonly Scorecard[], name: string): ScenarioCard[] {
  return cards.flatMap((card) => {
    const scenario = card.scenarios?.find((one) => one.name === name);
    return scenario ? [{ ...scenario.card, shard: card.shard }] : [];
  });
}
