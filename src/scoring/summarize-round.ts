import { type ScoreInterval, bootstrapMedianInterval } from "./bootstrap-interval.js";
import { type GateResult, type GateSettings, evaluateGate } from "./evaluate-gate.js";
import { median } from "./median.js";
import type { PromptStatus } from "./score-prompt.js";

/** The little of a prompt's result that the round summary depends on. */
export interface PromptOutcome {
  status: PromptStatus;
  score: number | null;
  /** False when the candidate was never sent this prompt (it failed before serving). */
  candidateAttempted: boolean;
}

export interface RoundSummary {
  roundScore: number | null;
  interval: ScoreInterval | null;
  promptsScored: number;
  promptsTotal: number;
  belowTolerance: number;
  zeroedTotal: number;
  excluded: number;
  gate: GateResult;
}

export interface SummarizeOptions {
  gate: GateSettings;
  /** Description of a baseline failure: the gate cannot pass without a sound reference. */
  baselineFailure: string | null;
  /** Description of an infrastructure failure on either side: nothing may pass on a broken measurement. */
  infrastructureFailure?: string | null;
  /** Why there may be no score (the failure that stopped the round), for the gate's reason. */
  failure: string | null;
  bootstrapSeed?: number;
}

/**
 * Round score, interval, counts and gate from per-prompt outcomes. Both a fresh round and a merge of
 * shard cards go through here, so a merged card equals the unsharded one.
 */
export function summarizeRound(prompts: readonly PromptOutcome[], options: SummarizeOptions): RoundSummary {
  const counted = prompts.filter((prompt) => prompt.status !== "excluded");
  // Zeroes count toward the median only when the candidate was actually asked: an engine that never
  // became healthy leaves no measurement at all, and the card says so instead of showing 0.00×.
  const attempted = counted.some((prompt) => prompt.candidateAttempted);
  const scores = attempted ? counted.map((prompt) => prompt.score ?? 0) : [];
  const roundScore = median(scores);
  const interval = bootstrapMedianInterval(scores, { seed: options.bootstrapSeed });
  const noScoreReason = roundScore === null ? (options.failure ?? "no prompt was attempted") : null;
  const gate = evaluateGate(
    { roundScore, interval, baselineFailure: options.baselineFailure, infrastructureFailure: options.infrastructureFailure ?? null, noScoreReason },
    options.gate,
  );
  const countOf = (status: PromptStatus): number => prompts.filter((prompt) => prompt.status === status).length;
  return {
    roundScore,
    interval,
    promptsScored: countOf("scored"),
    promptsTotal: prompts.length,
    belowTolerance: countOf("below_tolerance"),
    zeroedTotal: countOf("zeroed"),
    excluded: countOf("excluded"),
    gate,
  };
}
