import type { GateSettings } from "../scoring/evaluate-gate.js";
import { assembleScenarioCard } from "./assemble-scenario-card.js";
import { type RescoreOptions, rescoreCard } from "./rescore-card.js";
import type { ScenarioCard, ScenarioResult, Scorecard } from "./scorecard-schema.js";

/** The gate settings a card records: the bar its round (or its scenario) was configured with. */
export function recordedGateSettings(card: Pick<ScenarioCard, "gate">): GateSettings {
  // Everything the card's gate holds but its settings: the verdict the rescore decides again, the calibration it reads
  // from its own options, and the whole round's maxRegression, which combines scenarios rather than gating one.
  const {
    passed: _passed,
    reason: _reason,
    reasons: _reasons,
    rule: _rule,
    bar: _bar,
    unexplainedDecision: _decision,
    calibration: _calibration,
    maxRegression: _maxRegression,
    ...settings
  } = card.gate;
  return settings;
}

export interface ScenarioRescoreOptions extends Omit<RescoreOptions, "gate"> {
  /**
   * The gate each card is rescored under: by default the settings that card records (a scenario's own).
   * `name` is the scenario's (null for a card without scenarios), for a reader that sets a bar per scenario.
   */
  gateFor?: (card: ScenarioCard, name: string | null) => GateSettings;
  /** gate.maxRegression the scenarios are combined under: by default the card's own (absent: no such limit). */
  maxRegression?: number | null;
}

/** A scenario's card as the schema has it: a card of one workload, which never holds scenarios of its own. */
function asScenarioCard(card: Scorecard): ScenarioCard {
  const { scenarios: _scenarios, ...scenarioCard } = card;
  return scenarioCard;
}

/**
 * A card recomputed from its per-run tokens and times, as rescoreCard does. A card with scenarios is
 * recomputed scenario by scenario and assembled again: its top level (the headline's figures and the
 * combined gate) is only ever the submitter's word, so a card whose top level says "passed" while a
 * scenario fails cannot pass. A card without scenarios comes out exactly as rescoreCard gives it.
 */
export function rescoreScenarioCard(card: Scorecard, options: ScenarioRescoreOptions = {}): Scorecard {
  const { gateFor = recordedGateSettings, maxRegression, ...rest } = options;
  const rescore = (one: ScenarioCard, name: string | null): Scorecard => rescoreCard(one, { ...rest, gate: gateFor(one, name) });
  if (!card.scenarios) return rescore(card, null);
  const scenarios: ScenarioResult[] = card.scenarios.map(({ name, card: one }) => ({ name, card: asScenarioCard(rescore(one, name)) }));
  // Where the time went is informative only: nothing the gate decides reads it.
  return assembleScenarioCard(
    scenarios,
    maxRegression === undefined ? (card.gate.maxRegression ?? null) : maxRegression,
    card.timeSpent ? { timeSpent: card.timeSpent } : {},
  );
}
