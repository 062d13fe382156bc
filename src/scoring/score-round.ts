import type { EngineFailure } from "../failure/engine-failure.js";
import type { GateSettings } from "./evaluate-gate.js";
import type { RequestRecord } from "./request-record.js";
import { type PromptScore, scorePrompt } from "./score-prompt.js";
import { type RoundSummary, type SummarizeOptions, summarizeRound } from "./summarize-round.js";

/** One engine's side of a round: a record per prompt it was sent, and the failure that stopped it, if any. */
export interface EngineRoundResult {
  records: ReadonlyMap<string, RequestRecord>;
  failure: EngineFailure | null;
}

export interface ScoredPrompt extends PromptScore {
  id: string;
  baseline: RequestRecord | null;
  candidate: RequestRecord | null;
}

export interface RoundResult extends RoundSummary {
  prompts: ScoredPrompt[];
}

export interface ScoreRoundInput {
  promptIds: readonly string[];
  baseline: EngineRoundResult;
  candidate: EngineRoundResult;
  tolerance: number;
  gate: GateSettings;
  bootstrapSeed?: number;
  /** bench.agreementTokens (default 16; 0: answers are not checked). */
  agreementTokens?: number;
}

export function describeEngineFailure(failure: EngineFailure): string {
  return `${failure.engine} engine failed at ${failure.stage} (${failure.label})`;
}

/** A prompt an engine never answered because the engine had already failed gets that failure as its reason. */
function notSent(failure: EngineFailure | null): RequestRecord | undefined {
  if (!failure) return undefined;
  const when =
    failure.kind === "infrastructure" ? `was not measured at ${failure.stage}` : failure.stage === "benchmark" ? "died during the benchmark" : `failed at ${failure.stage}`;
  return { ok: false, kind: "not_sent", reason: `${failure.engine} engine ${when} (${failure.label})` };
}

/**
 * How a round's failure bears on its summary, described once: a baseline or infrastructure failure
 * never lets the gate pass, and any failure explains a missing score. A fresh round, a merge of shard
 * cards and the app's re-gate of an artifact all go through here, so they cannot disagree.
 */
export function failureContext(
  failure: Pick<EngineFailure, "engine" | "kind"> | null,
  description: string | null,
): Pick<SummarizeOptions, "baselineFailure" | "failure" | "infrastructureFailure"> {
  return {
    baselineFailure: failure?.engine === "baseline" ? description : null,
    failure: failure ? description : null,
    infrastructureFailure: failure?.kind === "infrastructure" ? description : null,
  };
}

export function wasAttempted(record: RequestRecord | null): boolean {
  return record !== null && !(record.ok === false && record.kind === "not_sent");
}

/** Applies the scoring rule to every prompt, then the median, its interval and the gate. Pure. */
export function scoreRound(input: ScoreRoundInput): RoundResult {
  const prompts: ScoredPrompt[] = input.promptIds.map((id) => {
    const baseline = input.baseline.records.get(id);
    const candidate = input.candidate.records.get(id);
    const score = scorePrompt(
      baseline ?? notSent(input.baseline.failure),
      candidate ?? notSent(input.candidate.failure),
      input.tolerance,
      { agreementTokens: input.agreementTokens },
    );
    return { id, ...score, baseline: baseline ?? null, candidate: candidate ?? null };
  });
  const failure = input.baseline.failure ?? input.candidate.failure;
  const summary = summarizeRound(
    prompts.map((prompt) => ({ status: prompt.status, score: prompt.score, candidateAttempted: wasAttempted(prompt.candidate) })),
    {
      gate: input.gate,
      ...failureContext(failure, failure ? describeEngineFailure(failure) : null),
      bootstrapSeed: input.bootstrapSeed,
    },
  );
  return { prompts, ...summary };
}
