import { median } from "./median.js";
import type { PromptStatus } from "./score-prompt.js";

/** The little of a prompt's result that the agreement summary needs. */
export interface AgreementOutcome {
  status: PromptStatus;
  agreement?: number | null;
}

export interface AgreementSummary {
  diverged: number;
  implausible: number;
  /** Median agreement over the prompts whose answers were compared; null when none was. */
  medianAgreement: number | null;
}

/**
 * The card's answer-integrity counts, from per-prompt results alone: a fresh round, a shard merge
 * and the app's re-gate all recompute them here, so the numbers on a card never come from the card.
 */
export function summarizeAgreement(prompts: readonly AgreementOutcome[]): AgreementSummary {
  const agreements = prompts.map((prompt) => prompt.agreement).filter((value): value is number => typeof value === "number");
  return {
    diverged: prompts.filter((prompt) => prompt.status === "diverged").length,
    implausible: prompts.filter((prompt) => prompt.status === "implausible").length,
    medianAgreement: median(agreements),
  };
}
