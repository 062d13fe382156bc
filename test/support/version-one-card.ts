import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { type ScorecardV1, scorecardSchemaV1 } from "../../src/scorecard/scorecard-schema-v1.js";

/**
 * The card speedgate 0.1 would have written for the same round: schema 1 kept no runs, no times at
 * k, no calibration and no gate settings beyond the bar and the rule. Validated by the version-1
 * schema, so a test reading it reads what an old artifact really holds.
 */
export function toVersion1(card: Scorecard): ScorecardV1 {
  const use = card.gate.use === "noise-floor" ? "round-score" : card.gate.use;
  return scorecardSchemaV1.parse({
    schemaVersion: 1,
    speedgateVersion: "0.1.0",
    createdAt: card.createdAt,
    engine: card.engine,
    roundScore: card.roundScore,
    scoreInterval: card.scoreInterval,
    promptsScored: card.promptsScored,
    promptsTotal: card.promptsTotal,
    belowTolerance: card.belowTolerance,
    zeroedTotal: card.zeroedTotal,
    excluded: card.excluded,
    tokenCountsEstimated: card.tokenCountsEstimated,
    settings: { ...card.settings, runs: undefined },
    provenance: card.provenance,
    gate: { minRoundScore: card.gate.minRoundScore, use, passed: card.gate.passed, reason: card.gate.reason },
    failure: card.failure ? { ...card.failure, run: undefined } : null,
    source: card.source,
    shard: card.shard,
    prompts: card.prompts.map((prompt) => ({ ...prompt, runs: undefined })),
  });
}
