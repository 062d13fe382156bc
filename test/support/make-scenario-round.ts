import { assembleScenarioCard } from "../../src/scorecard/assemble-scenario-card.js";
import type { Scorecard, TimeSpent } from "../../src/scorecard/scorecard-schema.js";
import { type PromptPlan, makeCard, testConfig } from "../../harness/make-card.js";

export interface ScenarioPlan {
  name: string;
  /** Every prompt's candidate this many times the baseline's speed. */
  speedup: number;
  /** The scenario's own gate.minRoundScore; the round's (1.0) when left out. */
  minRoundScore?: number;
  /** The scenario's own gate.role and gate.margin; a target when left out. */
  role?: "target" | "guard";
  margin?: number;
}

/** Enough prompts for the default gate.minPrompts (10). */
const PROMPTS = 12;

/** A round's card with scenarios, each scenario's card made as makeCard makes one, assembled as a round assembles them. */
export function makeScenarioRound(plans: readonly ScenarioPlan[], maxRegression: number | null = null): Scorecard {
  const scenarios = plans.map((plan) => {
    const own = Object.fromEntries(
      Object.entries({ minRoundScore: plan.minRoundScore, role: plan.role, margin: plan.margin }).filter(([, v]) => v !== undefined),
    );
    const config = Object.keys(own).length === 0 ? testConfig : { ...testConfig, gate: { ...testConfig.gate, ...own } };
    const prompts: PromptPlan[] = Array.from({ length: PROMPTS }, (_, index) => ({ speedup: plan.speedup * (1 + (index % 3) * 0.01) }));
    const { scenarios: _none, ...card } = makeCard(prompts, { config });
    return { name: plan.name, card };
  });
  return assembleScenarioCard(scenarios, maxRegression);
}

/** Where a round's time went, as a card records it: a record every reader keeps or drops whole. */
export const SAMPLE_TIME_SPENT: TimeSpent = {
  totalMs: 90_000,
  prepareMs: 10_000,
  baseline: { starts: 1, startMs: 20_000, warmupMs: 1_000, benchmarkMs: 15_000, stopMs: 500 },
  candidate: { starts: 1, startMs: 20_000, warmupMs: 1_000, benchmarkMs: 12_000, stopMs: 500 },
};
