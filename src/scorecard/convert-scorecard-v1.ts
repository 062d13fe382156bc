import { DEFAULT_MAX_UNSCORED, DEFAULT_MIN_PROMPTS } from "../scoring/evaluate-gate.js";
import { rescoreCard } from "./rescore-card.js";
import { SCORECARD_SCHEMA_VERSION, type Scorecard } from "./scorecard-schema.js";
import type { ScorecardV1 } from "./scorecard-schema-v1.js";

/**
 * A version-1 card in the current shape, so an artifact or a shard card written before the upgrade
 * still renders, merges and re-gates. Version 1 ran each engine once and kept no times at the
 * compared length, so each prompt gets one run whose score is the old card's own (the converted card
 * says so with convertedFrom: 1). Its summary and gate are recomputed under the current rule, with
 * the old card's bar and the current defaults for what version 1 did not have (the speed breakdown,
 * the GPU state and the docs link stay null); the re-gate then applies the repository's settings
 * on top, as for any card. A late version-1 card's integrity results (diverged, implausible,
 * agreement) are kept: they only ever lower its score.
 */
export function convertScorecardV1(card: ScorecardV1): Scorecard {
  const converted: Scorecard = {
    ...card,
    schemaVersion: SCORECARD_SCHEMA_VERSION,
    runs: { completed: 1, scores: [card.roundScore] },
    diverged: card.diverged ?? 0,
    implausible: card.implausible ?? 0,
    unscored: card.belowTolerance + (card.diverged ?? 0) + (card.implausible ?? 0) + card.zeroedTotal,
    settings: { ...card.settings, runs: 1 },
    gate: {
      ...card.gate,
      maxUnscored: DEFAULT_MAX_UNSCORED,
      minPrompts: DEFAULT_MIN_PROMPTS,
      bar: card.gate.minRoundScore,
      reasons: [],
      rule: null,
      calibration: null,
    },
    failure: card.failure ? { ...card.failure, run: null } : null,
    convertedFrom: 1,
    metrics: null,
    gpuState: null,
    docsBaseUrl: null,
    prompts: card.prompts.map((prompt) => ({
      ...prompt,
      runs: [
        {
          status: prompt.status,
          reason: prompt.reason,
          candidateAttempted: prompt.candidate !== null,
          comparedTokens: prompt.comparedTokens,
          baselineTokens: prompt.baseline?.outputTokens ?? null,
          candidateTokens: prompt.candidate?.outputTokens ?? null,
          baselineMs: null,
          candidateMs: null,
        },
      ],
    })),
  };
  return rescoreCard(converted, {
    gate: {
      minRoundScore: card.gate.minRoundScore,
      use: card.gate.use,
      maxUnscored: DEFAULT_MAX_UNSCORED,
      minPrompts: DEFAULT_MIN_PROMPTS,
    },
  });
}
