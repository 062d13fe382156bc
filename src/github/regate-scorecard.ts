import { rescoreScenarioCard } from "../scorecard/rescore-scenario-card.js";
import type { ClaimedBar, ScenarioCard, ScenarioResult, Scorecard } from "../scorecard/scorecard-schema.js";
import { type GateMode, type GateSettings, defaultGateMode } from "../scoring/evaluate-gate.js";
import { DEFAULT_GUARD_MARGIN } from "../scoring/scenario-role.js";
import { decideScenarioBar } from "./decide-scenario-bar.js";
import type { RoundConfigBars } from "./read-round-config-bars.js";
import type { RepoScenarioGate } from "./repo-config-schema.js";
import { requireDeclaredScenarios } from "./require-declared-scenarios.js";

/**
 * The repository's gate; without `use`, the round's own rule. `maxRegression` (rounds with scenarios):
 * no scenario's interval may lie wholly below it; without it, the limit the card records, if any (a
 * card can only tighten the gate with it, and leaving it out gives what the repository asked for).
 * `scenarios`: a bar per scenario name over the rest, each of which every card must hold. `roundConfig`:
 * the bars the round config on the default branch states per scenario, under `scenarios` and over the
 * rest (decideScenarioBar); each scenario it has must be in every card too.
 */
export type RepoGateSettings = Omit<GateSettings, "use"> & {
  use?: GateMode | undefined;
  maxRegression?: number | undefined;
  scenarios?: Readonly<Record<string, RepoScenarioGate>> | undefined;
  roundConfig?: RoundConfigBars | undefined;
};

/** A scenario card's bar in few words, to compare what a card claimed with what decided. */
function barOf(card: ScenarioCard): ClaimedBar {
  const role = card.gate.role ?? "target";
  return {
    role,
    minRoundScore: card.gate.minRoundScore,
    ...(role === "guard" ? { margin: card.gate.margin ?? DEFAULT_GUARD_MARGIN } : {}),
  };
}

function sameBar(one: ClaimedBar, other: ClaimedBar): boolean {
  if (one.role !== other.role) return false;
  return one.role === "guard" ? one.margin === other.margin : one.minRoundScore === other.minRoundScore;
}

/**
 * The card with its prompt scores, summary and gate recomputed from its per-run tokens and times
 * under the repository's gate, exactly as a fresh round would compute them: the scores, counts and
 * verdict in an artifact are the submitter's word, the threshold is the maintainers'. A card with
 * scenarios is recomputed scenario by scenario, each under the repository's gate merged with the
 * bar the repository states for that scenario's name (decideScenarioBar: the default branch's round config,
 * then the app's own entry; the bar inside the card is the submitter's word, as a round's is, and a scenario
 * neither names gets the repository's gate alone), and its top level assembled again from them. A card
 * that lacks a scenario the repository names fails. Each scenario says which settings decided its bar,
 * and the bar the card claimed when that was another. Its
 * troubleshooting links point where the reader (the app) says, never where the artifact says: a
 * candidate's workflow could aim them at any page it likes.
 */
export function regateScorecard(card: Scorecard, gate: RepoGateSettings, docsBaseUrl: string | null): Scorecard {
  const { maxRegression, use, scenarios: declared = {}, roundConfig, ...bar } = gate;
  const gateFor = (one: ScenarioCard, name: string | null): GateSettings => {
    const { use: scenarioUse, ...scenarioBar } = name === null ? {} : decideScenarioBar(name, declared, roundConfig).entry;
    return {
      ...bar,
      ...scenarioBar,
      use: scenarioUse ?? use ?? defaultGateMode(one.gate.calibration !== null, one.settings.budget !== undefined),
    };
  };
  const rescored = requireDeclaredScenarios(
    rescoreScenarioCard(card, { gateFor, ...(maxRegression === undefined ? {} : { maxRegression }) }),
    { names: Object.keys(declared) },
    ...(roundConfig ? [{ names: roundConfig.names, roundConfig: roundConfig.path }] : []),
  );
  const claimed = new Map((card.scenarios ?? []).map((scenario) => [scenario.name, barOf(scenario.card)]));
  const scenarios = rescored.scenarios?.map((scenario): ScenarioResult => {
    const decision = decideScenarioBar(scenario.name, declared, roundConfig);
    const was = claimed.get(scenario.name);
    return {
      ...scenario,
      card: { ...scenario.card, docsBaseUrl },
      barFrom: {
        settings: decision.from,
        path: decision.path,
        // Said on the card when it differs: the card and the check must never disagree silently with the round's own card.
        ...(was && !sameBar(was, barOf(scenario.card)) ? { claimed: was } : {}),
      },
    };
  });
  return { ...rescored, docsBaseUrl, ...(scenarios ? { scenarios } : {}) };
}
