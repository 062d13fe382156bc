import { combineScenarioGates } from "../scoring/combine-scenario-gates.js";
import { readScenarioGate } from "../scorecard/read-scenario-gate.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import { MAX_GATE_REASONS } from "../scoring/evaluate-gate.js";

/** Where a required scenario is declared: the app's settings (gate.scenarios), or the round config on the default branch. */
export interface DeclaredScenarios {
  names: readonly string[];
  /** The round config's path for its scenarios; absent for the app's settings. */
  roundConfig?: string;
}

/** Why the card fails for lacking them, and what to fix. */
function describeMissing(card: Scorecard, missing: readonly string[], roundConfig: string | undefined): string {
  const one = missing.length === 1;
  const names = missing.join(", ");
  const scenarioWord = `scenario${one ? "" : "s"}`;
  const lacks = card.scenarios
    ? `the card has no ${scenarioWord} ${names}, which ` +
      (roundConfig === undefined
        ? "the repository's app config declares (gate.scenarios)"
        : `the round config on the default branch has (${roundConfig})`)
    : (roundConfig === undefined
        ? `the repository's app config declares ${scenarioWord} ${names} (gate.scenarios)`
        : `the round config on the default branch (${roundConfig}) has ${scenarioWord} ${names}`) + " and the card has none";
  const them = one ? "it" : "them";
  return (
    `${lacks}: add ${them} to the round config's scenarios under the same name${one ? "" : "s"}; if the round config has ${them}, this ` +
    `card is not the one the round made`
  );
}

/**
 * The re-gated card, failed when it lacks a scenario the repository declares. A card is the pull
 * request's artifact, which the pull request's own code could have written: leaving out the scenario
 * that fails, or every scenario, must not pass the check. The combined gate's one-line reason (the
 * check's title) is made again with the missing ones counted among the scenarios and named, under the
 * limit the card was re-gated with.
 */
export function requireDeclaredScenarios(card: Scorecard, ...declared: DeclaredScenarios[]): Scorecard {
  const present = new Set((card.scenarios ?? []).map((scenario) => scenario.name));
  const seen = new Set<string>();
  const lacking = declared.map(({ names, roundConfig }) => {
    const missing = names.filter((name) => !present.has(name) && !seen.has(name));
    for (const name of missing) seen.add(name);
    return { missing, roundConfig };
  });
  const missing = [...seen];
  if (missing.length === 0) return card;
  const described = lacking.filter((one) => one.missing.length > 0).map((one) => describeMissing(card, one.missing, one.roundConfig));
  const reasons = [...described, ...card.gate.reasons].slice(0, MAX_GATE_REASONS);
  const reason = card.scenarios
    ? combineScenarioGates(card.scenarios.map(readScenarioGate), { maxRegression: card.gate.maxRegression ?? null }, missing).reason
    : reasons.join("; ");
  return { ...card, gate: { ...card.gate, passed: false, reason, reasons } };
}
