import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { runBenchmark } from "../bench/run-benchmark.js";
import { fingerprintRound } from "../config/fingerprint-round.js";
import type { LoadedRound } from "../config/load-round-config.js";
import { createRuntime } from "../engine/create-runtime.js";
import type { EngineExit, EngineRuntime, PreparedEngine, RunningEngine } from "../engine/engine-runtime.js";
import { waitUntilHealthy } from "../engine/wait-until-healthy.js";
import { classifyFailure } from "../failure/classify-failure.js";
import { type EngineFailure, EngineFailureError, type EngineRole } from "../failure/engine-failure.js";
import type { Logger } from "../logger.js";
import { type CardSource, buildScorecard } from "../scorecard/build-scorecard.js";
import { resolveDocsBaseUrl } from "../scorecard/resolve-docs-base-url.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { RequestRecord } from "../scoring/request-record.js";
import { type EngineRoundResult, scoreRound } from "../scoring/score-round.js";
import { describeGpus, probeGpuState } from "./probe-gpu.js";
import { type GpuStateRecorder, createGpuStateRecorder } from "./record-gpu-state.js";
import { type TokenCounterSource, createTokenCounterSource } from "./resolve-token-counter.js";
import { RoundCancelledError } from "./round-cancelled-error.js";
import type { RoundProgressEvent } from "./round-progress.js";

export type { RoundProgressEvent } from "./round-progress.js";

export interface RunRoundOptions {
  round: LoadedRound;
  logger: Logger;
  signal: AbortSignal;
  runId?: string;
  shard?: { index: number; count: number } | null;
  source?: CardSource | null;
  onProgress?: (event: RoundProgressEvent) => void;
  runtime?: EngineRuntime;
}

/** How long failed requests wait for the engine's exit to be reported before they are blamed on the network. */
const EXIT_GRACE_MS = 500;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));


function describeExitForReason(role: EngineRole, exit: EngineExit): string {
  if (exit.infrastructure) return `${exit.infrastructure.label}, during the ${role} engine's benchmark`;
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode ?? "unknown"}`;
  return `${role} engine ${how} during the benchmark`;
}

/** One engine's turn: prepare, start, wait for health, benchmark; the engine is stopped whatever happens. */
async function runEngine(
  role: EngineRole,
  runtime: EngineRuntime,
  options: RunRoundOptions,
  prepared: Map<EngineRole, PreparedEngine>,
  tokenCounter: TokenCounterSource,
  gpuState: GpuStateRecorder,
): Promise<EngineRoundResult> {
  const { round, signal, logger } = options;
  const emit = (event: RoundProgressEvent): void => options.onProgress?.(event);
  const { config } = round;
  let engine: RunningEngine | null = null;
  try {
    emit({ type: "preparing", role });
    prepared.set(role, await runtime.prepare(role, signal));
    // Read before any engine serves (from the baseline image with Docker), so a wrong path stops the round early.
    const counter = await tokenCounter.get(signal);
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    emit({ type: "starting", role });
    await gpuState.beforeStart(role);
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    engine = await runtime.start(role, signal);
    const { healthyAfterMs } = await waitUntilHealthy({
      engine,
      path: config.health.path,
      timeoutS: config.health.timeoutS,
      intervalMs: config.health.intervalMs,
      signal,
    });
    emit({ type: "healthy", role, afterMs: healthyAfterMs });

    // An engine that dies mid-benchmark ends the benchmark at once: the prompts it never answered
    // are recorded with the reason, instead of each waiting for its own timeout.
    const died = new AbortController();
    let benchmarkOver = false;
    let death: EngineFailure | null = null;
    const running = engine;
    void running.exited.then((exit) => {
      if (benchmarkOver) return;
      death = classifyFailure({ role, stage: "benchmark", exit, logLines: running.logTail() });
      died.abort(new Error(`${describeExitForReason(role, exit)}: ${death.summary}`));
    });
    const records: Map<string, RequestRecord> = await runBenchmark({
      baseUrl: engine.baseUrl,
      prompts: round.prompts,
      bench: config.bench,
      tokenCounter: counter,
      signal: AbortSignal.any([signal, died.signal]),
      onProgress: (progress) => emit({ type: "benchmark", role, ...progress }),
    });
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    if (!death && [...records.values()].some((record) => !record.ok)) {
      // Requests cut off by a dying engine can all fail before its exit is known (the pipes drain
      // first); give the exit a moment to arrive so the card blames the death, not the network.
      const exit = await Promise.race([running.exited, delay(EXIT_GRACE_MS).then(() => null)]);
      if (exit && !death) death = classifyFailure({ role, stage: "benchmark", exit, logLines: running.logTail() });
    }
    benchmarkOver = true;
    if (death) {
      emit({ type: "failed", role, failure: death });
      return { records, failure: death };
    }
    return { records, failure: null };
  } catch (error) {
    if (error instanceof RoundCancelledError) throw error;
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    if (error instanceof EngineFailureError) {
      logger.debug(`${role} engine failed: ${error.message}`);
      emit({ type: "failed", role, failure: error.failure });
      return { records: new Map(), failure: error.failure };
    }
    throw error;
  } finally {
    if (engine) {
      await engine.stop();
      emit({ type: "stopped", role });
    }
  }
}

/**
 * Runs a whole round: the baseline, then the candidate, on this machine one after the other, then
 * scores it. An engine failure ends in a card that explains it; only cancellation and broken
 * infrastructure throw. The runtime is always disposed, so nothing the round started survives it.
 */
export async function runRound(options: RunRoundOptions): Promise<Scorecard> {
  const { round, logger, signal } = options;
  const runId = options.runId ?? randomUUID().slice(0, 12);
  const runtime = options.runtime ?? createRuntime(round, { logger, runId });
  const prepared = new Map<EngineRole, PreparedEngine>();
  const gpuState = createGpuStateRecorder();
  let baseline: EngineRoundResult = { records: new Map(), failure: null };
  let candidate: EngineRoundResult = { records: new Map(), failure: null };
  const tokenCounter = createTokenCounterSource(round, runtime);
  try {
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    baseline = await runEngine("baseline", runtime, options, prepared, tokenCounter, gpuState);
    if (baseline.failure) {
      options.onProgress?.({ type: "skipped", role: "candidate", reason: "the baseline failed" });
    } else {
      candidate = await runEngine("candidate", runtime, options, prepared, tokenCounter, gpuState);
    }
  } finally {
    await runtime.dispose();
  }
  const result = scoreRound({
    promptIds: round.prompts.map((prompt) => prompt.id),
    baseline,
    candidate,
    tolerance: round.config.bench.tolerance,
    gate: round.config.gate,
    agreementTokens: round.config.bench.agreementTokens,
  });
  const snapshots = gpuState.snapshots();
  // A round that failed before any engine started still names the runner's GPUs.
  const gpu = describeGpus(snapshots.baseline ?? snapshots.candidate ?? (await probeGpuState()));
  return buildScorecard({
    config: round.config,
    result,
    gpuSnapshots: snapshots,
    docsBaseUrl: resolveDocsBaseUrl(process.env),
    failure: baseline.failure ?? candidate.failure,
    provenance: {
      imageDigest: prepared.get("candidate")?.imageId ?? null,
      baselineImageId: prepared.get("baseline")?.imageId ?? null,
      patchHash: prepared.get("candidate")?.patchHash ?? round.patch?.sha256 ?? null,
      ...(round.fingerprint ?? fingerprintRound(round.config, dirname(round.configPath), round.prompts)),
      runner: (process.env.RUNNER_NAME ?? hostname()).slice(0, 256) || null,
      gpu,
    },
    source: options.source ?? null,
    shard: options.shard ?? null,
    tokenizerSha256: tokenCounter.loaded()?.sha256 ?? null,
  });
}
