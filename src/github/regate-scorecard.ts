import { rescoreCard } from "../scorecard/rescore-card.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { GateMode, GateSettings } from "../scoring/evaluate-gate.js";

/** The repository's gate; without `use`, the round's own rule: noise-floor when the card names a calibration, else interval-low. */
export type RepoGateSettings = Omit<GateSettings, "use"> & { use?: GateMode | undefined };

/**
 * The card with its prompt scores, summary and gate recomputed from its per-run tokens and times
 * under the repository's gate, exactly as a fresh round would compute them: the scores, counts and
 * verdict in an artifact are the submitter's word, the threshold is the maintainers'. Its
 * troubleshooting links point where the reader (the app) says, never where the artifact says: a
 * candidate's workflow could aim them at any page it likes.
 */
export function regateScorecard(card: Scorecard, gate: RepoGateSettings, docsBaseUrl: string | null): Scorecard {
  const use = gate.use ?? (card.gate.calibration ? "noise-floor" : "interval-low");
  return { ...rescoreCard(card, { gate: { ...gate, use } }), docsBaseUrl };
}
