import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { runBenchmark } from "../bench/run-benchmark.js";
import { fitCalibration } from "../calibration/fit-calibration.js";
import { calibrationSourceOf } from "../config/load-round-calibration.js";
import { fingerprintRound } from "../config/fingerprint-round.js";
import type { LoadedRound } from "../config/load-round-config.js";
import { createRuntime } from "./create-runtime.js";
import { engineFamily } from "../vocabulary/engine-family.js";
import { collectEngineTimes } from "../metrics/collect-engine-times.js";
import type { MetricTotals } from "../metrics/read-engine-metrics.js";
import { reportedTimesFromMetrics } from "../metrics/read-engine-metrics.js";
import { scrapeEngineMetrics } from "../metrics/scrape-engine-metrics.js";
import type { EngineRuntime, PreparedEngine, RunningEngine } from "../engine/engine-runtime.js";
import type { EngineExit } from "../vocabulary/engine-exit.js";
import { waitUntilHealthy } from "../engine/wait-until-healthy.js";
import { classifyFailure } from "../failure/classify-failure.js";
import { type EngineFailure, EngineFailureError, type EngineRole } from "../vocabulary/engine-failure.js";
import type { Logger } from "../logger.js";
import { describeBusyPoll } from "../bench/keep-event-loop-awake.js";
import { warmBenchClient } from "../bench/warm-bench-client.js";
import { type CardSource, buildScorecard, cardSettings } from "../scorecard/build-scorecard.js";
import { calibrationFacts } from "../scorecard/rescore-card.js";
import { resolveDocsBaseUrl } from "../scorecard/resolve-docs-base-url.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { RequestRecord } from "../scoring/request-record.js";
import { findBaselineVariation } from "../scoring/find-baseline-variation.js";
import { type EngineRoundResult, type RoundRun, scoreRound } from "../scoring/score-round.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { probeGpuState } from "./probe-gpu.js";
import { describeGpus } from "../scorecard/read-gpu-snapshot.js";
import { type GpuStateRecorder, createGpuStateRecorder } from "./record-gpu-state.js";
import { createTokenCounterSource } from "./resolve-token-counter.js";
import { describeUnchangedCandidate } from "./describe-unchanged-candidate.js";
import { findPromptInFlight } from "./find-prompt-in-flight.js";
import { orderEngineTurns } from "./order-engine-turns.js";
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

/** A failure of this round, marked with its run when the round repeats its runs. */
function inRun(failure: EngineFailure, run: number | null): EngineFailure {
  return run === null ? failure : { ...failure, run };
}

/**
 * Prepares one engine (patch and build steps). A preparation failure is returned, not thrown, so the
 * round can end with a card before any engine starts.
 */
async function prepareEngine(
  role: EngineRole,
  runtime: EngineRuntime,
  options: RunRoundOptions,
  prepared: Map<EngineRole, PreparedEngine>,
): Promise<EngineFailure | null> {
  const { signal, logger } = options;
  try {
    options.onProgress?.({ type: "preparing", role });
    prepared.set(role, await runtime.prepare(role, signal));
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    return null;
  } catch (error) {
    if (error instanceof RoundCancelledError) throw error;
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    if (error instanceof EngineFailureError) {
      logger.debug(`${role} engine failed: ${error.message}`);
      options.onProgress?.({ type: "failed", role, failure: error.failure });
      return error.failure;
    }
    throw error;
  }
}

/** What every engine turn shares: the round's token counter and the GPU state recorder. */
interface EngineTurnContext {
  tokenCounter: TokenCounter | null;
  gpuState: GpuStateRecorder;
}

/** One engine's turn in one run: start, wait for health, benchmark; the engine is stopped whatever happens. */
async function runEngine(role: EngineRole, run: number, runtime: EngineRuntime, options: RunRoundOptions, context: EngineTurnContext): Promise<EngineRoundResult> {
  const { round, signal, logger } = options;
  const runs = round.config.bench.runs;
  const emit = (event: RoundProgressEvent): void => options.onProgress?.({ ...event, ...(runs > 1 ? { run, runs } : {}) });
  const mark = (failure: EngineFailure): EngineFailure => inRun(failure, runs > 1 ? run : null);
  const { config } = round;
  let engine: RunningEngine | null = null;
  try {
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    emit({ type: "starting", role });
    await context.gpuState.beforeStart(role);
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    engine = await runtime.start(role, signal);
    const { healthyAfterMs } = await waitUntilHealthy({
      engine,
      path: config.health.path,
      timeoutS: config.health.timeoutS,
      intervalMs: config.health.intervalMs,
      signal,
      engineFamily: engineFamily(config.engine),
      runtime: config.runtime,
    });
    emit({ type: "healthy", role, afterMs: healthyAfterMs });

    // An engine that dies mid-benchmark ends the benchmark: no prompt is sent after it, the answers it
    // had finished still count, and the prompts it never answered are recorded with the reason, instead
    // of each waiting for its own timeout.
    const died = new AbortController();
    let benchmarkOver = false;
    let death: EngineFailure | null = null;
    const running = engine;
    void running.exited.then((exit) => {
      if (benchmarkOver) return;
      death = classifyFailure({ role, stage: "benchmark", exit, logLines: running.logTail(), engine: engineFamily(config.engine), runtime: config.runtime });
      died.abort(new Error(`${describeExitForReason(role, exit)}: ${death.summary}`));
    });
    // SGLang and vLLM keep their own prompt and decode times in /metrics: read it around the measured requests.
    const family = engineFamily(config.engine);
    const scrapesMetrics = family === "sglang" || family === "vllm";
    let metricsBefore: MetricTotals | null = null;
    const records: Map<string, RequestRecord> = await runBenchmark({
      baseUrl: engine.baseUrl,
      prompts: round.prompts,
      bench: config.bench,
      engineFamily: family,
      tokenCounter: context.tokenCounter,
      signal,
      engineGone: died.signal,
      onProgress: (progress) => emit({ type: "benchmark", role, ...progress }),
      ...(scrapesMetrics ? { beforeMeasured: async () => void (metricsBefore = await scrapeEngineMetrics(running.baseUrl, signal)) } : {}),
    });
    const metricsAfter = metricsBefore ? await scrapeEngineMetrics(running.baseUrl, signal) : null;
    const reportedTimes = metricsBefore && metricsAfter ? reportedTimesFromMetrics(family, metricsBefore, metricsAfter) : null;
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    if (!death && [...records.values()].some((record) => !record.ok)) {
      // Requests cut off by a dying engine can all fail before its exit is known (the pipes drain
      // first); give the exit a moment to arrive so the card blames the death, not the network.
      const exit = await Promise.race([running.exited, delay(EXIT_GRACE_MS).then(() => null)]);
      if (exit && !death) death = classifyFailure({ role, stage: "benchmark", exit, logLines: running.logTail(), engine: engineFamily(config.engine), runtime: config.runtime });
    }
    benchmarkOver = true;
    if (death) {
      const failure = mark({ ...death, prompt: findPromptInFlight(round.prompts, records) });
      emit({ type: "failed", role, failure });
      return { records, failure, reportedTimes };
    }
    return { records, failure: null, reportedTimes };
  } catch (error) {
    if (error instanceof RoundCancelledError) throw error;
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    if (error instanceof EngineFailureError) {
      logger.debug(`${role} engine failed: ${error.message}`);
      const failure = mark(error.failure);
      emit({ type: "failed", role, failure });
      return { records: new Map(), failure };
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
 * Prepares both engines, then runs them: the candidate is patched and built before any engine
 * starts (the overlay needs the baseline image, so the baseline is prepared first), and a patch that
 * does not apply or a build that fails ends the round at once, without a baseline startup and
 * benchmark spent on it. Then bench.runs runs, each restarting both engines, so a slow engine start
 * lands on either side, in counterbalanced order (baseline first in odd runs, candidate first in
 * even ones, see orderEngineTurns); any failure ends the round. An engine failure ends in a card that explains it; only cancellation and broken
 * infrastructure throw. The runtime is always disposed, so nothing the round started survives it.
 */
export async function runRound(options: RunRoundOptions): Promise<Scorecard> {
  const { round, logger, signal } = options;
  const runId = options.runId ?? randomUUID().slice(0, 12);
  const runtime = options.runtime ?? createRuntime(round, { logger, runId });
  const prepared = new Map<EngineRole, PreparedEngine>();
  const gpuState = createGpuStateRecorder();
  const tokenCounter = createTokenCounterSource(round, runtime);
  const runs: RoundRun[] = [];
  let failure: EngineFailure | null = null;
  logger.info(describeBusyPoll(round.config.bench.busyPoll));
  try {
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    // Before any engine: its cost must not fall on the first engine measured (warm-bench-client.ts).
    if (round.config.bench.clientWarmup) await warmBenchClient();
    failure = await prepareEngine("baseline", runtime, options, prepared);
    if (failure) options.onProgress?.({ type: "skipped", role: "candidate", reason: "the baseline could not be prepared" });
    else {
      // Read before any engine is built or serves (from the baseline image with Docker), so a wrong path stops the round early.
      const counter = await tokenCounter.get(signal);
      if (signal.aborted) throw new RoundCancelledError(signal.reason);
      failure = await prepareEngine("candidate", runtime, options, prepared);
      if (failure?.engine === "candidate") options.onProgress?.({ type: "skipped", role: "baseline", reason: "the candidate could not be prepared, so no engine was started" });
      const context: EngineTurnContext = { tokenCounter: counter, gpuState };
      for (let run = 1; run <= round.config.bench.runs && !failure; run++) {
        const [first, second] = orderEngineTurns(run, round.config.bench.order);
        const firstResult = await runEngine(first, run, runtime, options, context);
        const secondResult: EngineRoundResult = firstResult.failure ? { records: new Map(), failure: null } : await runEngine(second, run, runtime, options, context);
        if (firstResult.failure) options.onProgress?.({ type: "skipped", role: second, reason: `the ${first} failed` });
        const turns = { [first]: firstResult, [second]: secondResult } as Record<EngineRole, EngineRoundResult>;
        runs.push({ baseline: turns.baseline, candidate: turns.candidate });
        failure = firstResult.failure ?? secondResult.failure;
      }
    }
  } finally {
    await runtime.dispose();
  }
  const config = round.config;
  const snapshots = gpuState.snapshots();
  const sourceReport = runtime.sourceReport?.() ?? null;
  const commits = round.commits
    ? {
        base: round.commits.base,
        head: round.commits.head,
        mergeBase: round.commits.mergeBase,
        image: sourceReport?.image ?? null,
        imageRevision: sourceReport?.imageRevision ?? null,
        imageRevisionFrom: sourceReport?.imageRevisionFrom ?? null,
        baseline: sourceReport?.baseline ?? null,
        candidate: sourceReport?.candidate ?? null,
      }
    : null;
  // A round that failed before any engine started still names the runner's GPUs.
  const gpu = describeGpus(snapshots.baseline ?? snapshots.candidate ?? (await probeGpuState()));
  const provenance = {
    imageDigest: prepared.get("candidate")?.imageId ?? null,
    baselineImage: config.baseline.image ?? null,
    // In base/head mode the baseline's own image changes with every base: the engine image both were made from is what a calibration is tied to.
    baselineImageId: (commits ? sourceReport?.imageId : prepared.get("baseline")?.imageId) ?? null,
    patchHash: prepared.get("candidate")?.patchHash ?? round.patch?.sha256 ?? null,
    ...(round.fingerprint ?? fingerprintRound(config, dirname(round.configPath), round.prompts)),
    runner: (process.env.RUNNER_NAME ?? hostname()).slice(0, 256) || null,
    gpu,
  };
  // Fitted from the same facts the card keeps, so the app's re-gate decides the fit the same way.
  const calibration = round.calibration
    ? fitCalibration(calibrationSourceOf(round.calibration), calibrationFacts({ engine: config.engine, provenance, settings: cardSettings(config) }))
    : null;
  const result = scoreRound({
    promptIds: round.prompts.map((prompt) => prompt.id),
    runs,
    failure,
    plannedRuns: config.bench.runs,
    tolerance: config.bench.tolerance,
    gate: config.gate,
    agreementTokens: config.bench.agreementTokens,
    minPromptAgreement: config.bench.minPromptAgreement,
    noise: calibration ? { floor: calibration.noiseFloor, problems: calibration.problems, selfAgreement: calibration.selfAgreement ?? null } : null,
  });
  return buildScorecard({
    config,
    result,
    gpuSnapshots: snapshots,
    docsBaseUrl: resolveDocsBaseUrl(process.env),
    failure,
    calibration,
    provenance,
    source: options.source ?? null,
    shard: options.shard ?? null,
    tokenizerSha256: tokenCounter.loaded()?.sha256 ?? null,
    engineTimes: collectEngineTimes(engineFamily(config.engine), runs, result),
    answerVariation: findBaselineVariation(result.prompts, {
      tolerance: config.bench.tolerance,
      agreementTokens: config.bench.agreementTokens,
      minPromptAgreement: config.bench.minPromptAgreement,
    }),
    commits,
    unchanged: describeUnchangedCandidate(round),
  });
}
