import type { RoundConfig } from "../config/round-config-schema.js";
import type { EngineFailure } from "../vocabulary/engine-failure.js";
import { computeRoundMetrics, type PairedRequest } from "../metrics/compute-round-metrics.js";
import type { EngineReportedTimes } from "../vocabulary/engine-reported-times.js";
import type { GpuSnapshot, GpuState } from "../vocabulary/gpu-state-schema.js";
import { type RequestRecord, timeToFirstTokenMs } from "../scoring/request-record.js";
import { type PromptRunResult, type RoundResult, wasAttempted } from "../scoring/score-round.js";
import { DEFAULT_AGREEMENT_TOKENS } from "../scoring/score-prompt.js";
import type { RoundSummary } from "../scoring/summarize-round.js";
import { SPEEDGATE_VERSION } from "../version.js";
import {
  type AnswerVariation,
  type CardQuality,
  type CardSequential,
  type EngineSide,
  MAX_LISTED_REGRESSED,
  MAX_PROMPTS_SOURCE_CHARS,
  type PromptRun,
  SCORECARD_SCHEMA_VERSION,
  type Scorecard,
} from "./scorecard-schema.js";
import type { CardCalibration } from "../calibration/calibration-schema.js";
import { mostRuns } from "../config/run-plan.js";

export type Provenance = Scorecard["provenance"];
export type CardSource = NonNullable<Scorecard["source"]>;

export interface BuildScorecardInput {
  config: RoundConfig;
  /** What in the pull request changes the engine's parallel slots (findSlotChange); null or absent when nothing does. */
  slotsChanged?: string | null;
  /** The baseline's parallel slots as its command sets them, for the queue-bound check of a closed loop. */
  engineSlots?: { slots: number; setting: string } | null;
  result: RoundResult;
  /** The failure that stopped the round, with the run it happened in. */
  failure: EngineFailure | null;
  /** The calibration the gate used, already fitted to this round. */
  calibration?: CardCalibration | null;
  provenance?: Partial<Provenance>;
  source?: CardSource | null;
  shard?: Scorecard["shard"];
  now?: Date;
  /** sha256 of the tokenizer.json speedgate counted with; null or absent when the engines counted. */
  tokenizerSha256?: string | null;
  /** nvidia-smi's view before each engine started; omitted when the round did not look. */
  gpuSnapshots?: { baseline: GpuSnapshot | null; candidate: GpuSnapshot | null };
  docsBaseUrl?: string | null;
  /** The engines' own prompt and decode times, where they report them (llama.cpp's timings, SGLang's and vLLM's metrics). */
  engineTimes?: EngineReportedTimes | null;
  /** The baseline's own answers across runs (findBaselineVariation); null with one run. */
  answerVariation?: AnswerVariation | null;
  /** Base/head mode: the commits and how each engine was made; absent in the fixed-baseline mode. */
  commits?: Scorecard["commits"];
  /** Why the candidate was the baseline engine itself (describeUnchangedCandidate); null or absent when something differed. */
  unchanged?: string | null;
  /** Where the round's time went (engine starts, warm-up, benchmark); null or absent when not measured. */
  timeSpent?: Scorecard["timeSpent"];
  /** A scenario's prompts file as its config writes it; absent for synthetic prompts and a round without scenarios. */
  promptsSource?: string;
  /** The quality question set as both engines answered it (its verdict is the result's); absent without quality:. */
  quality?: Omit<CardQuality, "judgement"> | null;
}

/** A path past the card's bound keeps its end: the file's name and folders nearest it tell which set it was. */
function fitPromptsSource(path: string): string {
  return path.length <= MAX_PROMPTS_SOURCE_CHARS ? path : `…${path.slice(path.length - MAX_PROMPTS_SOURCE_CHARS + 1)}`;
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

function engineSide(record: RequestRecord | null): EngineSide | null {
  if (!record || !wasAttempted(record)) return null;
  if (!record.ok) {
    return {
      outputTokens: null,
      ttftMs: null,
      e2eMs: record.endMs === undefined ? null : round3(record.endMs),
      finishReason: null,
      error: record.reason,
    };
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

/** A run as the card keeps it: the in-memory score is left out, since every reader recomputes it from the times. */
export function cardRun(run: PromptRunResult): PromptRun {
  return {
    status: run.status,
    reason: run.reason,
    candidateAttempted: run.candidateAttempted,
    comparedTokens: run.comparedTokens,
    baselineTokens: run.baselineTokens,
    candidateTokens: run.candidateTokens,
    baselineMs: run.baselineMs,
    candidateMs: run.candidateMs,
    agreedTokens: run.agreedTokens,
    ...(run.agreedBaselineMs !== null ? { agreedBaselineMs: run.agreedBaselineMs, agreedCandidateMs: run.agreedCandidateMs } : {}),
    ...(typeof run.baselineSentMs === "number" && typeof run.candidateSentMs === "number"
      ? { baselineSentMs: run.baselineSentMs, candidateSentMs: run.candidateSentMs }
      : {}),
    ...(run.evidence ? { evidence: run.evidence } : {}),
    ...(run.match ? { match: run.match, baselineRun: run.baselineRun ?? null, baselinePartsHere: run.baselinePartsHere ?? false } : {}),
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
export function summaryFields(
  summary: RoundSummary,
  calibration: CardCalibration | null,
): Pick<
  Scorecard,
  | "roundScore"
  | "scoreInterval"
  | "runs"
  | "promptsScored"
  | "promptsTotal"
  | "belowTolerance"
  | "diverged"
  | "implausible"
  | "zeroedTotal"
  | "unscored"
  | "excluded"
  | "medianAgreement"
  | "unexplained"
  | "unexplainedAnswers"
  | "regression"
  | "gate"
  | "sequential"
> {
  return {
    roundScore: summary.roundScore,
    scoreInterval: summary.interval,
    runs: summary.runs,
    promptsScored: summary.promptsScored,
    promptsTotal: summary.promptsTotal,
    belowTolerance: summary.belowTolerance,
    diverged: summary.diverged,
    implausible: summary.implausible,
    zeroedTotal: summary.zeroedTotal,
    unscored: summary.unscored,
    excluded: summary.excluded,
    medianAgreement: summary.medianAgreement,
    unexplained: summary.unexplained,
    unexplainedAnswers: summary.unexplainedAnswers,
    regression: summary.regression
      ? {
          regressedTotal: summary.regression.regressed.length,
          regressed: summary.regression.regressed.slice(0, MAX_LISTED_REGRESSED),
          e2eP90: summary.regression.e2eP90,
          throughput: summary.regression.throughput,
        }
      : null,
    gate: { ...summary.gate, calibration },
    // Only for a run budget: a card of a fixed number of runs reads as it did before budgets existed.
    ...(summary.sequential ? { sequential: cardSequential(summary.sequential) } : {}),
  };
}

/** The sequential test as the card keeps it: what was decided at each look, and why the round stopped. */
function cardSequential(sequential: NonNullable<RoundSummary["sequential"]>): CardSequential {
  const { budget, alpha, spread, runs, looks, decision, decidedAfter, runSpread, detectable, stop } = sequential;
  return {
    budget: { ...budget },
    alpha,
    spread,
    runs,
    looks: looks.map((look) => ({ ...look })),
    decision,
    decidedAfter,
    runSpread,
    detectable,
    stop,
  };
}

/** The round's settings as its card shows them. */
export function cardSettings(config: RoundConfig): Scorecard["settings"] {
  return {
    requestIntervalMs: config.bench.requestIntervalMs,
    arrival: config.bench.arrival,
    // Only when set: a card of an open loop on a prompt file reads as it did before either existed.
    ...(config.bench.concurrency !== null ? { concurrency: config.bench.concurrency } : {}),
    ...(typeof config.bench.prompts === "object" ? { synthetic: config.bench.prompts.synthetic } : {}),
    thinking: config.bench.thinking,
    contextLimit: config.bench.contextLimit,
    maxTokens: config.bench.maxTokens,
    tolerance: config.bench.tolerance,
    model: config.bench.model,
    runs: mostRuns(config.bench.runs),
    ...(typeof config.bench.runs === "object" ? { budget: { ...config.bench.runs } } : {}),
    order: config.bench.order,
    clientWarmup: config.bench.clientWarmup,
  };
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

export function cardFailure(failure: EngineFailure | null): Scorecard["failure"] {
  return failure ? { ...failure, run: failure.run ?? null } : null;
}

/** Each run's prompt pairs, as the speed breakdown pools them: every run of B C B C counts, not only the first. */
function metricsRuns(result: RoundResult): PairedRequest[][] {
  const runCount = Math.max(0, ...result.prompts.map((prompt) => prompt.runs.length));
  return Array.from({ length: runCount }, (_, index) =>
    result.prompts.flatMap((prompt) => {
      const run = prompt.runs[index];
      return run
        ? [{ status: run.status, comparedTokens: run.comparedTokens, baseline: run.baselineRecord, candidate: run.candidateRecord }]
        : [];
    }),
  );
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
    ...summaryFields(result, input.calibration ?? null),
    tokenCountsEstimated: estimated,
    settings: {
      ...cardSettings(config),
      ...(input.slotsChanged ? { slotsChanged: input.slotsChanged.slice(0, 500) } : {}),
      ...(input.engineSlots ? { engineSlots: { slots: input.engineSlots.slots, setting: input.engineSlots.setting.slice(0, 200) } } : {}),
      ...(input.promptsSource ? { promptsSource: fitPromptsSource(input.promptsSource) } : {}),
      agreementTokens: config.bench.agreementTokens ?? DEFAULT_AGREEMENT_TOKENS,
      minPromptAgreement: config.bench.minPromptAgreement,
      tokenizer: input.tokenizerSha256 ?? null,
    },
    provenance: { ...emptyProvenance(), baselineImage: config.baseline.image ?? null, ...input.provenance },
    metrics: computeRoundMetrics(metricsRuns(result)),
    ...(input.engineTimes ? { engineTimes: input.engineTimes } : {}),
    ...(input.answerVariation ? { answerVariation: input.answerVariation } : {}),
    gpuState: gpuState(config, input.gpuSnapshots),
    docsBaseUrl: input.docsBaseUrl ?? null,
    failure: cardFailure(input.failure),
    source: input.source ?? null,
    shard: input.shard ?? null,
    ...(input.commits ? { commits: input.commits } : {}),
    ...(input.unchanged ? { unchanged: input.unchanged } : {}),
    ...(input.timeSpent ? { timeSpent: input.timeSpent } : {}),
    ...(input.quality ? { quality: { ...input.quality, judgement: result.quality } } : {}),
    convertedFrom: null,
    prompts: result.prompts.map((prompt) => ({
      id: prompt.id,
      status: prompt.status,
      score: prompt.score,
      speedup: prompt.speedup,
      comparedTokens: prompt.comparedTokens,
      reason: prompt.reason,
      ...(prompt.agreement !== undefined ? { agreement: prompt.agreement, agreedTokens: prompt.agreedTokens ?? null } : {}),
      baselineSelf: prompt.baselineSelf,
      ...(prompt.answerPrefixes ? { answerPrefixes: prompt.answerPrefixes, baselineAnswers: prompt.baselineAnswers } : {}),
      baseline: engineSide(prompt.baseline),
      candidate: engineSide(prompt.candidate),
      runs: prompt.runs.map(cardRun),
    })),
  };
}
