import { assembleScenarioCard } from "../../src/scorecard/combine-scenario-gates.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { type PromptPlan, makeCard, testConfig } from "./make-card.js";

export interface ScenarioPlan {
  name: string;
  /** Every prompt's candidate this many times the baseline's speed. */
  speedup: number;
  /** The scenario's own gate.minRoundScore; the round's (1.0) when left out. */
  minRoundScore?: number;
}

/** Enough prompts for the default gate.minPrompts (10). */
const PROMPTS = 12;

/** A round's card with scenarios, each scenario's card made as makeCard makes one, assembled as a round assembles them. */
export function makeScenarioRound(plans: readonly ScenarioPlan[], maxRegression: number | null = null): Scorecard {
  const scenarios = plans.map((plan) => {
    const config = plan.minRoundScore === undefined ? testConfig : { ...testConfig, gate: { ...testConfig.gate, minRoundScore: plan.minRoundScore } };
    const prompts: PromptPlan[] = Array.from({ length: PROMPTS }, (_, index) => ({ speedup: plan.speedup * (1 + (index % 3) * 0.01) }));
    const { scenarios: _none, ...card } = makeCard(prompts, { config });
    return { name: plan.name, card };
  });
  return assembleScenarioCard(scenarios, maxRegression);
}
