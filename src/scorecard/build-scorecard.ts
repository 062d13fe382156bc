import type { RoundConfig } from "../config/round-config-schema.js";
import type { EngineFailure } from "../failure/engine-failure.js";
import { computeRoundMetrics } from "../metrics/compute-round-metrics.js";
import type { GpuSnapshot, GpuState } from "../round/gpu-state-schema.js";
import { type RequestRecord, timeToFirstTokenMs } from "../scoring/request-record.js";
import { type RoundResult, wasAttempted } from "../scoring/score-round.js";
import { DEFAULT_AGREEMENT_TOKENS } from "../scoring/score-prompt.js";
import { type AgreementOutcome, summarizeAgreement } from "../scoring/summarize-agreement.js";
import type { RoundSummary } from "../scoring/summarize-round.js";
import { SPEEDGATE_VERSION } from "../version.js";
import { type EngineSide, SCORECARD_SCHEMA_VERSION, type Scorecard } from "./scorecard-schema.js";

export type Provenance = Scorecard["provenance"];
export type CardSource = NonNullable<Scorecard["source"]>;

export interface BuildScorecardInput {
  config: RoundConfig;
  result: RoundResult;
  /** The failure that stopped the round: the baseline's when it failed, else the candidate's. */
  failure: EngineFailure | null;
  provenance?: Partial<Provenance>;
  source?: CardSource | null;
  shard?: Scorecard["shard"];
  now?: Date;
  /** sha256 of the tokenizer.json speedgate counted with; null or absent when the engines counted. */
  tokenizerSha256?: string | null;
  /** nvidia-smi's view before each engine started; omitted when the round did not look. */
  gpuSnapshots?: { baseline: GpuSnapshot | null; candidate: GpuSnapshot | null };
  docsBaseUrl?: string | null;
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

function engineSide(record: RequestRecord | null): EngineSide | null {
  if (!record || !wasAttempted(record)) return null;
  if (!record.ok) {
    return { outputTokens: null, ttftMs: null, e2eMs: record.endMs === undefined ? null : round3(record.endMs), finishReason: null, error: record.reason };
  }
  const ttft = timeToFirstTokenMs(record);
  return {
    outputTokens: record.outputTokens,
    claimedTokens: record.claimedTokens ?? null,
    ttftMs: ttft === null ? null : round3(ttft),
    e2eMs: round3(record.endMs),
    finishReason: record.finishReason,
    error: null,
  };
}

export function emptyProvenance(): Provenance {
  return {
    imageDigest: null,
    baselineImage: null,
    baselineImageId: null,
    patchHash: null,
    configHash: null,
    promptsHash: null,
    runner: null,
    gpu: null,
  };
}

/**
 * The card's fields that a round summary decides. A fresh round, a shard merge and the app's re-gate
 * all set them from summarizeRound through here, so the three cannot drift apart.
 */
export function summaryFields(summary: RoundSummary): Pick<
  Scorecard,
  "roundScore" | "scoreInterval" | "promptsScored" | "promptsTotal" | "belowTolerance" | "zeroedTotal" | "excluded" | "gate"
> {
  return {
    roundScore: summary.roundScore,
    scoreInterval: summary.interval,
    promptsScored: summary.promptsScored,
    promptsTotal: summary.promptsTotal,
    belowTolerance: summary.belowTolerance,
    zeroedTotal: summary.zeroedTotal,
    excluded: summary.excluded,
    gate: summary.gate,
  };
}

/** The card's answer-integrity fields, recomputed from its per-prompt results (fresh round, merge, re-gate). */
export function agreementFields(prompts: readonly AgreementOutcome[]): Pick<Scorecard, "diverged" | "implausible" | "medianAgreement"> {
  return summarizeAgreement(prompts);
}

/** Whether the candidate started exactly as the baseline did, so that only the patch differed. */
export function startsLikeBaseline(config: RoundConfig): boolean {
  const command = config.candidate.command;
  const sameCommand = command === undefined || JSON.stringify(command) === JSON.stringify(config.baseline.command);
  const sameEnv = Object.entries(config.candidate.env ?? {}).every(([name, value]) => config.baseline.env[name] === value);
  return sameCommand && sameEnv;
}

function gpuState(config: RoundConfig, snapshots: BuildScorecardInput["gpuSnapshots"]): GpuState | null {
  if (!snapshots) return null;
  return { sameLaunch: startsLikeBaseline(config), baseline: snapshots.baseline, candidate: snapshots.candidate };
}

/** Assembles the versioned card from a scored round; the single place that decides its shape. */
export function buildScorecard(input: BuildScorecardInput): Scorecard {
  const { config, result } = input;
  const estimated = result.prompts.some((prompt) =>
    [prompt.baseline, prompt.candidate].some((record) => record?.ok === true && record.tokensEstimated),
  );
  return {
    schemaVersion: SCORECARD_SCHEMA_VERSION,
    speedgateVersion: SPEEDGATE_VERSION,
    createdAt: (input.now ?? new Date()).toISOString(),
    engine: config.engine,
    ...summaryFields(result),
    ...agreementFields(result.prompts),
    tokenCountsEstimated: estimated,
    settings: {
      requestIntervalMs: config.bench.requestIntervalMs,
      arrival: config.bench.arrival,
      thinking: config.bench.thinking,
      contextLimit: config.bench.contextLimit,
      maxTokens: config.bench.maxTokens,
      tolerance: config.bench.tolerance,
      model: config.bench.model,
      agreementTokens: config.bench.agreementTokens ?? DEFAULT_AGREEMENT_TOKENS,
      tokenizer: input.tokenizerSha256 ?? null,
    },
    provenance: { ...emptyProvenance(), baselineImage: config.baseline.image ?? null, ...input.provenance },
    metrics: computeRoundMetrics([result.prompts]),
    gpuState: gpuState(config, input.gpuSnapshots),
    docsBaseUrl: input.docsBaseUrl ?? null,
    failure: input.failure,
    source: input.source ?? null,
    shard: input.shard ?? null,
    prompts: result.prompts.map((prompt) => ({
      id: prompt.id,
      status: prompt.status,
      score: prompt.score,
      speedup: prompt.speedup,
      comparedTokens: prompt.comparedTokens,
      reason: prompt.reason,
      ...(prompt.agreement !== undefined ? { agreement: prompt.agreement, agreedTokens: prompt.agreedTokens ?? null } : {}),
      baseline: engineSide(prompt.baseline),
      candidate: engineSide(prompt.candidate),
    })),
  };
}
