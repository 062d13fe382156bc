import type { BarSource } from "../scorecard/scorecard-schema.js";
import { BAR_FIELDS, type RoundConfigBars } from "./read-round-config-bars.js";
import type { RepoScenarioGate } from "./repo-config-schema.js";

/** A scenario's entry over the app's `gate`, and which settings its bar came from. */
export interface ScenarioBarDecision {
  entry: RepoScenarioGate;
  from: BarSource;
  /** The file the bar came from: the round config's path, or null for the app's settings. */
  path: string | null;
}

// Own entries only: a scenario named "constructor" or "toString" must not find what every object inherits.
function own<T>(record: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined;
}

/**
 * The one rule for a scenario's bar, which the app's re-gate and `run --check` both follow: the app's `gate`,
 * the bar the round config on the default branch states for the scenario over it, and the app's own
 * `gate.scenarios` entry for it over both. The app's entry decides the bar when it sets any of role, margin,
 * minRoundScore or use; else the round config does when it states one; else the app's `gate` does.
 */
export function decideScenarioBar(
  name: string,
  appScenarios: Readonly<Record<string, RepoScenarioGate>> | undefined,
  roundConfig: RoundConfigBars | undefined,
): ScenarioBarDecision {
  const fromApp = own(appScenarios, name);
  const fromRound = roundConfig ? own(roundConfig.scenarios, name) : undefined;
  const entry = { ...fromRound, ...fromApp };
  const appSetsBar = fromApp !== undefined && BAR_FIELDS.some((field) => fromApp[field] !== undefined);
  if (!appSetsBar && fromRound !== undefined && roundConfig) return { entry, from: "round-config", path: roundConfig.path };
  return { entry, from: "app-settings", path: null };
}
