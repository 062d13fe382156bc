import { findEngineSlots, findSlotChange } from "../patch/find-slot-change.js";
import { readCommitsDiff } from "./read-commits-diff.js";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import { runBenchmark } from "../client/run-benchmark.js";
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
import { describeBusyPoll } from "../client/keep-event-loop-awake.js";
import { warmBenchClient } from "../client/warm-bench-client.js";
import { type CardSource, type Provenance, buildScorecard } from "../scorecard/build-scorecard.js";
import { resolveDocsBaseUrl } from "../scorecard/render/resolve-docs-base-url.js";
import type { Scorecard, TimeSpent } from "../scorecard/scorecard-schema.js";
import type { RequestRecord } from "../scoring/request-record.js";
import { findBaselineVariation } from "../scoring/find-baseline-variation.js";
import type { EngineRoundResult, RoundRun } from "../scoring/score-round.js";
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
import { type RoundWorkload, listRoundWorkloads } from "./list-round-workloads.js";
import { type TimeSpentTracker, trackTimeSpent } from "./track-time-spent.js";
import { assembleScenarioCard } from "../scorecard/assemble-scenario-card.js";
import { describeSharedPrompts, findSharedPrompts } from "../vocabulary/find-shared-prompts.js";
import { describeRoundTwoRuns } from "./describe-round-two-runs.js";
import { type WorkloadRunPlan, planWorkloadRuns } from "./plan-workload-runs.js";
import { scoreWorkload } from "./score-workload.js";
import { type QualityRun, runQualitySet } from "./run-quality-set.js";
import { collectQualityOutcomes } from "./collect-quality-outcomes.js";

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

/** What every engine turn shares: the round's workloads, token counter, GPU state recorder and time. */
interface EngineTurnContext {
  workloads: readonly RoundWorkload[];
  /** The round's runs: the most any workload has. */
  runs: number;
  /** Which workloads each run serves: a budget's stop once its rule decides. */
  plan: WorkloadRunPlan;
  tokenCounter: TokenCounter | null;
  gpuState: GpuStateRecorder;
  timeSpent: TimeSpentTracker;
  /** The round's question set, asked after the workloads in every start; null without quality:. */
  quality: QualityRun | null;
}

/**
 * One engine's turn in one run: what each workload it served measured (by index), which questions of the
 * quality set it got right (null when it was not asked them), and the failure that ended it.
 */
interface EngineTurn {
  results: Map<number, EngineRoundResult>;
  quality: Map<string, boolean> | null;
  failure: EngineFailure | null;
}

/**
 * One engine's turn in one run: start, wait for health, then each workload of this run in order (its
 * warm-up and its benchmark) on that one start; the engine is stopped whatever happens.
 */
async function runEngine(
  role: EngineRole,
  run: number,
  runtime: EngineRuntime,
  options: RunRoundOptions,
  context: EngineTurnContext,
): Promise<EngineTurn> {
  const { round, signal, logger } = options;
  const { runs, timeSpent } = context;
  const emit = (event: RoundProgressEvent): void => options.onProgress?.({ ...event, ...(runs > 1 ? { run, runs } : {}) });
  const mark = (failure: EngineFailure, scenario: string | null): EngineFailure => ({
    ...inRun(failure, runs > 1 ? run : null),
    ...(scenario !== null ? { scenario } : {}),
  });
  const named = (scenario: string | null): { scenario?: string } => (scenario !== null ? { scenario } : {});
  const { config } = round;
  const family = engineFamily(config.engine);
  const workloads = context.workloads.flatMap((workload, index) => (context.plan.serves(index, run) ? [{ workload, index }] : []));
  const results = new Map<number, EngineRoundResult>();
  let serving: { workload: RoundWorkload; index: number } | null = null;
  let engine: RunningEngine | null = null;
  try {
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    emit({ type: "starting", role });
    const startAsked = performance.now();
    timeSpent.started(role);
    try {
      await context.gpuState.beforeStart(role);
      if (signal.aborted) throw new RoundCancelledError(signal.reason);
      engine = await runtime.start(role, signal);
      const { healthyAfterMs } = await waitUntilHealthy({
        engine,
        path: config.health.path,
        timeoutS: config.health.timeoutS,
        intervalMs: config.health.intervalMs,
        signal,
        engineFamily: family,
        runtime: config.runtime,
      });
      emit({ type: "healthy", role, afterMs: healthyAfterMs });
    } finally {
      timeSpent.add(role, "startMs", performance.now() - startAsked);
    }

    // An engine that dies mid-benchmark ends the benchmark: no prompt is sent after it, the answers it
    // had finished still count, and the prompts it never answered are recorded with the reason, instead
    // of each waiting for its own timeout. It is watched across every workload of this start.
    const died = new AbortController();
    let benchmarkOver = false;
    let death: EngineFailure | null = null;
    const running = engine;
    void running.exited.then((exit) => {
      if (benchmarkOver) return;
      death = classifyFailure({ role, stage: "benchmark", exit, logLines: running.logTail(), engine: family, runtime: config.runtime });
      died.abort(new Error(`${describeExitForReason(role, exit)}: ${death.summary}`));
    });
    // SGLang and vLLM keep their own prompt and decode times in /metrics: read it around the measured requests.
    const scrapesMetrics = family === "sglang" || family === "vllm";
    for (const entry of workloads) {
      serving = entry;
      const { workload } = entry;
      let metricsBefore: MetricTotals | null = null;
      const records: Map<string, RequestRecord> = await runBenchmark({
        baseUrl: running.baseUrl,
        prompts: workload.prompts,
        bench: workload.config.bench,
        engineFamily: family,
        tokenCounter: context.tokenCounter,
        signal,
        engineGone: died.signal,
        onProgress: (progress) => emit({ type: "benchmark", role, ...named(workload.name), ...progress }),
        onTimeSpent: (spent) => {
          timeSpent.add(role, "warmupMs", spent.warmupMs);
          timeSpent.add(role, "benchmarkMs", spent.benchmarkMs);
        },
        ...(scrapesMetrics
          ? { beforeMeasured: async () => void (metricsBefore = await scrapeEngineMetrics(running.baseUrl, signal)) }
          : {}),
      });
      const metricsAfter = metricsBefore ? await scrapeEngineMetrics(running.baseUrl, signal) : null;
      const reportedTimes = metricsBefore && metricsAfter ? reportedTimesFromMetrics(family, metricsBefore, metricsAfter) : null;
      if (signal.aborted) throw new RoundCancelledError(signal.reason);
      if (!death && [...records.values()].some((record) => !record.ok)) {
        // Requests cut off by a dying engine can all fail before its exit is known (the pipes drain
        // first); give the exit a moment to arrive so the card blames the death, not the network.
        const exit = await Promise.race([running.exited, delay(EXIT_GRACE_MS).then(() => null)]);
        if (exit && !death)
          death = classifyFailure({ role, stage: "benchmark", exit, logLines: running.logTail(), engine: family, runtime: config.runtime });
      }
      if (death) {
        benchmarkOver = true;
        const failure = mark({ ...death, prompt: findPromptInFlight(workload.prompts, records) }, workload.name);
        results.set(entry.index, { records, failure, reportedTimes });
        emit({ type: "failed", role, ...named(workload.name), failure });
        return { results, quality: null, failure };
      }
      results.set(entry.index, { records, failure: null, reportedTimes });
    }
    serving = null;
    // The question set, after every workload of this start: its answers are not timed, and the bench's are over.
    const answered = context.quality
      ? await runQualitySet({
          baseUrl: running.baseUrl,
          quality: context.quality,
          bench: config.bench,
          engineFamily: family,
          signal,
          engineGone: died.signal,
          onProgress: (progress) => emit({ type: "quality", role, ...progress }),
        })
      : null;
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    if (answered) {
      timeSpent.add(role, "qualityMs", answered.ms);
      if (!death && [...answered.records.values()].some((record) => !record.ok)) {
        const exit = await Promise.race([running.exited, delay(EXIT_GRACE_MS).then(() => null)]);
        if (exit && !death)
          death = classifyFailure({ role, stage: "benchmark", exit, logLines: running.logTail(), engine: family, runtime: config.runtime });
      }
      if (death) {
        benchmarkOver = true;
        const failure = mark(death, null);
        emit({ type: "failed", role, failure });
        return { results, quality: null, failure };
      }
    }
    benchmarkOver = true;
    return { results, quality: answered?.right ?? null, failure: null };
  } catch (error) {
    if (error instanceof RoundCancelledError) throw error;
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    if (error instanceof EngineFailureError) {
      logger.debug(`${role} engine failed: ${error.message}`);
      const scenario = serving?.workload.name ?? null;
      const failure = mark(error.failure, scenario);
      if (serving) results.set(serving.index, { records: new Map(), failure });
      emit({ type: "failed", role, ...named(scenario), failure });
      return { results, quality: null, failure };
    }
    throw error;
  } finally {
    if (engine) {
      const stopAsked = performance.now();
      await engine.stop();
      timeSpent.add(role, "stopMs", performance.now() - stopAsked);
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
 * even ones, see orderEngineTurns); any failure ends the round. An engine failure ends in a card that explains it; only cancellation and
 * broken infrastructure throw. The runtime is always disposed, so nothing the round started survives it.
 */
export async function runRound(options: RunRoundOptions): Promise<Scorecard> {
  const { round, logger, signal } = options;
  const runId = options.runId ?? randomUUID().slice(0, 12);
  const timeSpent = trackTimeSpent(() => performance.now());
  const runtime = options.runtime ?? createRuntime(round, { logger, runId });
  const prepared = new Map<EngineRole, PreparedEngine>();
  const gpuState = createGpuStateRecorder();
  const tokenCounter = createTokenCounterSource(round, runtime);
  const workloads = listRoundWorkloads(round);
  const plan = planWorkloadRuns(workloads.map(({ config }) => ({ runs: config.bench.runs, order: config.bench.order })));
  const roundRuns = plan.roundRuns;
  // Each workload's runs: one with fewer runs than the round's, or whose budget's rule decided, is benchmarked in the first ones only.
  const workloadRuns: RoundRun[][] = workloads.map(() => []);
  const quality: QualityRun | null =
    round.config.quality && round.quality ? { questions: round.quality.questions, settings: round.config.quality } : null;
  // Which questions each engine got right in each run, in run order.
  const qualityRuns: Array<{ baseline: Map<string, boolean> | null; candidate: Map<string, boolean> | null }> = [];
  let failure: EngineFailure | null = null;
  let spent: TimeSpent | null = null;
  logger.info(describeBusyPoll(round.config.bench.busyPoll));
  const sharedPrompts = describeSharedPrompts(
    findSharedPrompts((round.scenarios ?? []).map((scenario) => ({ name: scenario.name, promptsHash: scenario.fingerprint.promptsHash }))),
  );
  if (sharedPrompts) logger.warn(sharedPrompts);
  for (const note of describeRoundTwoRuns(round)) logger.warn(note);
  try {
    if (signal.aborted) throw new RoundCancelledError(signal.reason);
    // Before any engine: its cost must not fall on the first engine measured (warm-bench-client.ts).
    if (round.config.bench.clientWarmup) await warmBenchClient();
    const prepareAsked = performance.now();
    failure = await prepareEngine("baseline", runtime, options, prepared);
    if (failure) {
      timeSpent.addPrepare(performance.now() - prepareAsked);
      options.onProgress?.({ type: "skipped", role: "candidate", reason: "the baseline could not be prepared" });
    } else {
      // Read before any engine is built or serves (from the baseline image with Docker), so a wrong path stops the round early.
      const counter = await tokenCounter.get(signal);
      if (signal.aborted) throw new RoundCancelledError(signal.reason);
      failure = await prepareEngine("candidate", runtime, options, prepared);
      timeSpent.addPrepare(performance.now() - prepareAsked);
      if (failure?.engine === "candidate")
        options.onProgress?.({
          type: "skipped",
          role: "baseline",
          reason: "the candidate could not be prepared, so no engine was started",
        });
      const context: EngineTurnContext = { workloads, runs: roundRuns, plan, tokenCounter: counter, gpuState, timeSpent, quality };
      for (let run = 1; run <= roundRuns && !failure && plan.goesOn(run - 1); run++) {
        const [first, second] = orderEngineTurns(run, round.config.bench.order);
        const firstTurn = await runEngine(first, run, runtime, options, context);
        const secondTurn: EngineTurn = firstTurn.failure
          ? { results: new Map(), quality: null, failure: null }
          : await runEngine(second, run, runtime, options, context);
        if (firstTurn.failure) options.onProgress?.({ type: "skipped", role: second, reason: `the ${first} failed` });
        const turns = { [first]: firstTurn, [second]: secondTurn } as Record<EngineRole, EngineTurn>;
        // A workload an engine never reached in this run was not sent because of that engine's failure.
        const resultOf = (turn: EngineTurn, index: number): EngineRoundResult =>
          turn.results.get(index) ?? { records: new Map(), failure: turn.failure };
        workloads.forEach((_, index) => {
          if (!plan.serves(index, run)) return;
          workloadRuns[index]?.push({ baseline: resultOf(turns.baseline, index), candidate: resultOf(turns.candidate, index) });
        });
        qualityRuns.push({ baseline: turns.baseline.quality, candidate: turns.candidate.quality });
        failure = firstTurn.failure ?? secondTurn.failure;
        if (failure) break;
        // A budget's rule looks after whole pairs: scored as its card will be, from the runs so far.
        const provenanceNow = roundProvenance(round, prepared, runtime, describeGpus(gpuState.snapshots().baseline ?? null));
        plan.afterRun(run, (index) => {
          const workload = workloads[index] as RoundWorkload;
          const { result } = scoreWorkload({ round, workload, runs: workloadRuns[index] ?? [], failure: null, provenance: provenanceNow });
          const stop = result.sequential?.stop ?? null;
          if (stop) logger.info(`${workload.name === null ? "the round" : `scenario ${workload.name}`} stops after ${run} runs: ${stop}`);
          return stop !== null;
        });
      }
    }
    spent = timeSpent.finish();
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
  const provenance = roundProvenance(round, prepared, runtime, gpu);
  const family = engineFamily(config.engine);
  const qualityCard = quality && round.quality ? collectQualityOutcomes(quality, round.quality.hash, qualityRuns) : null;
  const slotsChanged = findSlotChange({
    diff: round.commits ? await readCommitsDiff(round.commits) : (round.patch?.bytes.toString("utf8") ?? null),
    baselineCommand: config.baseline.command,
    candidateCommand: config.candidate.command,
  });
  const engineSlots = findEngineSlots(config.baseline.command);
  // Each workload is scored and carded on its own, with its own settings, prompts and bar.
  const cards = workloads.map((workload, index) => {
    const settings = workload.config;
    const runs = workloadRuns[index] ?? [];
    const {
      result,
      calibration,
      provenance: ownProvenance,
    } = scoreWorkload({
      round,
      workload,
      runs,
      failure,
      provenance,
      // The question set was answered in the starts every workload shares: each workload's card judges it.
      quality: qualityCard?.questions ?? null,
    });
    return buildScorecard({
      config: settings,
      slotsChanged,
      engineSlots,
      result,
      gpuSnapshots: snapshots,
      docsBaseUrl: resolveDocsBaseUrl(process.env),
      failure,
      calibration,
      provenance: ownProvenance,
      source: options.source ?? null,
      shard: options.shard ?? null,
      tokenizerSha256: tokenCounter.loaded()?.sha256 ?? null,
      engineTimes: collectEngineTimes(family, runs, result),
      answerVariation: findBaselineVariation(result.prompts, {
        tolerance: settings.bench.tolerance,
        agreementTokens: settings.bench.agreementTokens,
        minPromptAgreement: settings.bench.minPromptAgreement,
      }),
      commits,
      unchanged: describeUnchangedCandidate(round),
      // A round's time is the round's: on its card, not on each scenario's.
      timeSpent: workload.name === null ? spent : null,
      ...(workload.promptsSource !== undefined ? { promptsSource: workload.promptsSource } : {}),
      quality: qualityCard,
    });
  });
  if (!round.scenarios) return cards[0] ?? failWithoutWorkload();
  const scenarios = workloads.flatMap((workload, index) => {
    const card = cards[index];
    return workload.name !== null && card ? [{ name: workload.name, card }] : [];
  });
  return assembleScenarioCard(scenarios, config.gate.maxRegression ?? null, spent ? { timeSpent: spent } : {});
}

/** What the card says the round ran: the images, the patch, the config and prompts, the runner and its GPUs. */
function roundProvenance(
  round: LoadedRound,
  prepared: ReadonlyMap<EngineRole, PreparedEngine>,
  runtime: EngineRuntime,
  gpu: string | null,
): Provenance {
  const { config } = round;
  const sourceReport = runtime.sourceReport?.() ?? null;
  return {
    imageDigest: prepared.get("candidate")?.imageId ?? null,
    baselineImage: config.baseline.image ?? null,
    // In base/head mode the baseline's own image changes with every base: the engine image both were made from is what a calibration is
    // tied to.
    baselineImageId: (round.commits ? sourceReport?.imageId : prepared.get("baseline")?.imageId) ?? null,
    patchHash: prepared.get("candidate")?.patchHash ?? round.patch?.sha256 ?? null,
    ...(round.fingerprint ?? fingerprintRound(config, dirname(round.configPath), round.prompts)),
    runner: (process.env.RUNNER_NAME ?? hostname()).slice(0, 256) || null,
    gpu,
  };
}

function failWithoutWorkload(): never {
  throw new Error("a round has at least one workload");
}
