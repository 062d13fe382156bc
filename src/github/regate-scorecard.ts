import { agreementFields, summaryFields } from "../scorecard/build-scorecard.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { GateSettings } from "../scoring/evaluate-gate.js";
import { describeEngineFailure, failureContext } from "../scoring/score-round.js";
import { summarizeRound } from "../scoring/summarize-round.js";

/**
 * The card with its summary and gate recomputed from its per-prompt results under the repository's
 * gate, exactly as a fresh round would compute them: the counts, score and verdict in an artifact
 * are the submitter's word, the threshold is the maintainers'. Its troubleshooting links point where
 * the reader (the app) says, never where the artifact says: a candidate's workflow could aim them at
 * any page it likes.
 */
export function regateScorecard(card: Scorecard, gate: GateSettings, docsBaseUrl: string | null): Scorecard {
  const failure = card.failure;
  const summary = summarizeRound(
    card.prompts.map((prompt) => ({ status: prompt.status, score: prompt.score, candidateAttempted: prompt.candidate !== null })),
    {
      gate,
      ...failureContext(failure, failure ? describeEngineFailure(failure) : null),
    },
  );
  return { ...card, ...summaryFields(summary), ...agreementFields(card.prompts), docsBaseUrl };
}
