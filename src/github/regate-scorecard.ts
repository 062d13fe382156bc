import { rescoreScenarioCard } from "../scorecard/rescore-scenario-card.js";
import type { ScenarioCard, Scorecard } from "../scorecard/scorecard-schema.js";
import { type GateMode, type GateSettings, defaultGateMode } from "../scoring/evaluate-gate.js";
import type { RepoScenarioGate } from "./repo-config-schema.js";
import { requireDeclaredScenarios } from "./require-declared-scenarios.js";

/**
 * The repository's gate; without `use`, the round's own rule. `maxRegression` (rounds with scenarios):
 * no scenario's interval may lie wholly below it; without it, the limit the card records, if any (a
 * card can only tighten the gate with it, and leaving it out gives what the repository asked for).
 * `scenarios`: a bar per scenario name over the rest, each of which every card must hold.
 */
export type RepoGateSettings = Omit<GateSettings, "use"> & {
  use?: GateMode | undefined;
  maxRegression?: number | undefined;
  scenarios?: Readonly<Record<string, RepoScenarioGate>> | undefined;
};

/**
 * The card with its prompt scores, summary and gate recomputed from its per-run tokens and times
 * under the repository's gate, exactly as a fresh round would compute them: the scores, counts and
 * verdict in an artifact are the submitter's word, the threshold is the maintainers'. A card with
 * scenarios is recomputed scenario by scenario, each under the repository's gate merged with the
 * repository's entry for that scenario's name (a scenario's own bar is the submitter's word too, as a
 * round's is; a scenario the repository does not name gets the repository's gate alone), and its top
 * level assembled again from them. A card that lacks a scenario the repository names fails. Its
 * troubleshooting links point where the reader (the app) says, never where the artifact says: a
 * candidate's workflow could aim them at any page it likes.
 */
export function regateScorecard(card: Scorecard, gate: RepoGateSettings, docsBaseUrl: string | null): Scorecard {
  const { maxRegression, use, scenarios: declared = {}, ...bar } = gate;
  const gateFor = (one: ScenarioCard, name: string | null): GateSettings => {
    // Own entries only: a scenario named "constructor" or "toString" must not find what every object inherits.
    const { use: scenarioUse, ...scenarioBar } = name !== null && Object.hasOwn(declared, name) ? (declared[name] ?? {}) : {};
    return { ...bar, ...scenarioBar, use: scenarioUse ?? use ?? defaultGateMode(one.gate.calibration !== null) };
  };
  const rescored = requireDeclaredScenarios(
    rescoreScenarioCard(card, { gateFor, ...(maxRegression === undefined ? {} : { maxRegression }) }),
    Object.keys(declared),
  );
  const scenarios = rescored.scenarios?.map((scenario) => ({ ...scenario, card: { ...scenario.card, docsBaseUrl } }));
  return { ...rescored, docsBaseUrl, ...(scenarios ? { scenarios } : {}) };
}
