import type { EngineFailure } from "../../src/vocabulary/engine-failure.js";
import { readScorecard } from "../../src/scorecard/read-scorecard.js";
import type { ScenarioCard, Scorecard, TimeSpent } from "../../src/scorecard/scorecard-schema.js";
import { makeCard, testConfig } from "../../harness/make-card.js";

/** One of the shipped example cards (examples/cards/<name>.json), as a scenario's card. */
export async function readExampleCard(name: string): Promise<ScenarioCard> {
  const { scenarios: _none, ...card } = await readScorecard(new URL(`../../examples/cards/${name}.json`, import.meta.url).pathname);
  return card;
}

/** A card under another load than it was measured with: the table and the fold read the settings. */
export function underLoad(card: ScenarioCard, load: Partial<ScenarioCard["settings"]>): ScenarioCard {
  return { ...card, settings: { ...card.settings, ...load } };
}

/** Twelve prompts about 9% slower through the real scoring rule: an interval wholly below 1×. */
export function slowerCard(options: { minRoundScore?: number; failure?: EngineFailure | null } = {}): Scorecard {
  const config =
    options.minRoundScore === undefined
      ? testConfig
      : { ...testConfig, gate: { ...testConfig.gate, minRoundScore: options.minRoundScore } };
  return makeCard(
    [0.9, 0.92, 0.91, 0.89, 0.93, 0.9, 0.91, 0.92, 0.9, 0.91, 0.9, 0.92].map((speedup) => ({ speedup })),
    { config, failure: options.failure ?? null },
  );
}

/** A round of 4 runs whose engine starts took 39% of it, as an 8B model's do on a GPU. */
export const FOUR_RUNS_TIME: TimeSpent = {
  totalMs: 1_930_000,
  prepareMs: 182_000,
  baseline: { starts: 4, startMs: 372_000, warmupMs: 40_000, benchmarkMs: 300_000, stopMs: 8_000 },
  candidate: { starts: 4, startMs: 380_000, warmupMs: 41_000, benchmarkMs: 290_000, stopMs: 9_000 },
};
