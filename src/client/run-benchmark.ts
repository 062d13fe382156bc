import { setMaxListeners } from "node:events";
import { performance } from "node:perf_hooks";
import type { BenchSettings } from "../config/bench-settings-schema.js";
import type { Prompt } from "../prompts/prompt.js";
import type { RequestRecord } from "../scoring/request-record.js";
import { buildArrivalSchedule } from "./build-arrival-schedule.js";
import { buildWarmupPrompts } from "./build-warmup-prompts.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { EngineFamily } from "../vocabulary/engine-family.js";
import { createBenchAgent } from "./create-bench-agent.js";
import { finalizeRecords } from "./finalize-records.js";
import { keepEventLoopAwake, resolveBusyPoll } from "./keep-event-loop-awake.js";
import { type RequestSettings, sendStreamingRequest } from "./send-streaming-request.js";
import { warmBenchClient } from "./warm-bench-client.js";

export interface BenchmarkProgress {
  done: number;
  total: number;
  failed: number;
}

export interface RunBenchmarkOptions {
  baseUrl: string;
  prompts: Prompt[];
  bench: BenchSettings;
  /** Whose request fields to use where engines differ (llama.cpp's n_predict for synthetic prompts); absent or null: unknown. */
  engineFamily?: EngineFamily | null;
  signal: AbortSignal;
  onProgress?: (p: BenchmarkProgress) => void;
  /** speedgate's own token counting (bench.tokenizer); null or absent: the engine's counts, bounded by its bytes. */
  tokenCounter?: TokenCounter | null;
  /** Awaited after the warm-ups, right before the first measured request (reading the engine's metrics there). */
  beforeMeasured?: () => Promise<void>;
  /**
   * Aborted when the engine's process is gone: no request starts after it, and the ones in flight keep
   * what the engine sent before it died (its sockets are closed, so they end by themselves) and are cut
   * off only after DEATH_DRAIN_MS. Aborting them at once lost answers whose last bytes had arrived but
   * were not read yet: a busy client learns of the exit before it reads its sockets.
   */
  engineGone?: AbortSignal;
  /** Told, once the benchmark is over, how long its warm-up took and how long its measured part. */
  onTimeSpent?: (spent: BenchmarkTimeSpent) => void;
}

/** Where one benchmark's time went: the round's timeSpent adds these up per engine. */
export interface BenchmarkTimeSpent {
  /** From the call to the first measured request: client and engine warm-up, and beforeMeasured. */
  warmupMs: number;
  /** From the first measured request until every record is final (tokenized). */
  benchmarkMs: number;
}

/** How long a connection error waits for the engine's death to be reported before it stands as is. */
const DEATH_GRACE_MS = 1000;
/** How long requests in flight when the engine died may take to end by themselves before they are cut off. */
const DEATH_DRAIN_MS = 2000;

function describeAbort(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason && typeof reason === "object" && "message" in reason) return String(reason.message);
  return String(reason);
}

/** Resolves at an absolute performance.now() time (or at once on abort); waits never add up into drift. */
async function waitUntil(target: number, signal: AbortSignal): Promise<void> {
  const delay = target - performance.now();
  if (delay <= 0 || signal.aborted) return;
  await new Promise<void>((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, delay);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Sends one prompt, timed from the run's start. */
type SendPrompt = (prompt: Prompt, runStart: number) => Promise<RequestRecord>;
/** Keeps one prompt's record as it comes back. */
type KeepRecord = (prompt: Prompt, record: RequestRecord) => void;

async function runOpenLoop(
  prompts: Prompt[],
  offsets: number[],
  signal: AbortSignal,
  send: SendPrompt,
  onRecord: KeepRecord,
): Promise<void> {
  const inFlight: Array<Promise<void>> = [];
  const startAt = performance.now();
  for (let index = 0; index < prompts.length; index++) {
    await waitUntil(startAt + (offsets[index] ?? 0), signal);
    if (signal.aborted) break;
    const prompt = prompts[index];
    if (!prompt) continue;
    inFlight.push(send(prompt, startAt).then((record) => onRecord(prompt, record)));
  }
  // Aborted requests settle at once (sendStreamingRequest listens to the same signal).
  await Promise.all(inFlight);
}

/**
 * A closed loop: `concurrency` requests in flight from the start, and each answer's end (or failure)
 * sends the next prompt in order, so the engine is never asked to hold more than that many at once.
 */
async function runClosedLoop(
  prompts: Prompt[],
  concurrency: number,
  signal: AbortSignal,
  send: SendPrompt,
  onRecord: KeepRecord,
): Promise<void> {
  const startAt = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!signal.aborted && next < prompts.length) {
      const prompt = prompts[next++];
      if (!prompt) continue;
      onRecord(prompt, await send(prompt, startAt));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, prompts.length) }, worker));
}

/** The run's load: an open loop on the arrival schedule, or a closed loop of bench.concurrency. */
function runLoad(prompts: Prompt[], bench: BenchSettings, signal: AbortSignal, send: SendPrompt, onRecord: KeepRecord): Promise<void> {
  if (bench.concurrency !== null) return runClosedLoop(prompts, bench.concurrency, signal, send, onRecord);
  const offsets = buildArrivalSchedule(prompts.length, bench.requestIntervalMs, bench.arrival, bench.seed);
  return runOpenLoop(prompts, offsets, signal, send, onRecord);
}

/**
 * Benchmarks one engine: optional warm-up requests (prompts shaped like the measured ones in turn but
 * sharing none of their text, see buildWarmupPrompts, on the same schedule; their answers are dropped
 * and the scored run starts once they are all back), then every
 * prompt in the given order: on an open-loop schedule, each request started at its absolute time
 * whether or not earlier ones finished, or in a closed loop of bench.concurrency requests in flight. Never throws for engine behaviour; on
 * abort every prompt not yet answered is recorded as engine_died with the abort's reason.
 */
export async function runBenchmark(options: RunBenchmarkOptions): Promise<Map<string, RequestRecord>> {
  const { prompts, bench, baseUrl } = options;
  // Every in-flight request listens for the abort: hundreds of listeners on one signal are expected
  // here, so a signal of our own (following the caller's) carries them without a leak warning.
  const linked = new AbortController();
  setMaxListeners(0, linked.signal);
  const follow = (): void => linked.abort(options.signal.reason);
  if (options.signal.aborted) follow();
  else options.signal.addEventListener("abort", follow, { once: true });
  const signal = linked.signal;
  // Stops new requests: a cancellation, or the engine's death at once; the requests in flight follow a
  // death only after the drain.
  const stopped = options.engineGone ? AbortSignal.any([signal, options.engineGone]) : signal;
  let drainTimer: NodeJS.Timeout | null = null;
  const drainThenCut = (): void => {
    drainTimer = setTimeout(() => linked.abort(options.engineGone?.reason), DEATH_DRAIN_MS);
  };
  if (options.engineGone?.aborted) linked.abort(options.engineGone.reason);
  else options.engineGone?.addEventListener("abort", drainThenCut, { once: true });
  const settings: RequestSettings = {
    model: bench.model,
    maxTokens: bench.maxTokens,
    thinking: bench.thinking,
    requestTimeoutS: bench.requestTimeoutS,
    // Synthetic prompts ask for a fixed answer length; a prompt file's answers end where the model ends them.
    ignoreEos: typeof bench.prompts === "object",
    engineFamily: options.engineFamily ?? null,
  };
  const records = new Map<string, RequestRecord>();
  const total = prompts.length;
  let failed = 0;
  const dispatcher = createBenchAgent();
  // Held from the first warm-up request to the last answer: arrivals are stamped, and requests start,
  // without waiting for the kernel to wake the thread.
  const releaseAwake = resolveBusyPoll(bench.busyPoll) ? keepEventLoopAwake() : null;
  const send = async (prompt: Prompt, runStart: number): Promise<RequestRecord> => {
    let sentAt = runStart;
    const record = await sendStreamingRequest({ baseUrl, prompt, settings, signal, dispatcher, onSend: (time) => (sentAt = time) });
    // Throughput is measured over the run's span, which the per-request times (relative to each send) cannot give.
    if (record.ok) record.sentMs = Math.max(0, sentAt - runStart);
    if (record.ok || record.kind !== "connection_error") return record;
    // A dying engine drops its connections a moment before its exit is noticed: hold a connection
    // error briefly, and if the abort follows, the death is what the card should say.
    await waitUntil(performance.now() + DEATH_GRACE_MS, stopped);
    if (!stopped.aborted) return record;
    const died: RequestRecord = { ok: false, kind: "engine_died", reason: `${describeAbort(stopped)} (${record.reason})` };
    if (record.chunks) died.chunks = record.chunks;
    if (record.endMs !== undefined) died.endMs = record.endMs;
    return died;
  };

  const calledAt = performance.now();
  let measuredAt: number | null = null;
  try {
    if (bench.clientWarmup) await warmBenchClient();
    const warmups = buildWarmupPrompts(prompts, bench.warmupRequests);
    if (warmups.length > 0) await runLoad(warmups, bench, stopped, send, () => undefined);
    await options.beforeMeasured?.();
    measuredAt = performance.now();
    options.onProgress?.({ done: 0, total, failed: 0 });
    await runLoad(prompts, bench, stopped, send, (prompt, record) => {
      records.set(prompt.id, record);
      if (!record.ok) failed++;
      options.onProgress?.({ done: records.size, total, failed });
    });
  } finally {
    releaseAwake?.();
    options.signal.removeEventListener("abort", follow);
    options.engineGone?.removeEventListener("abort", drainThenCut);
    if (drainTimer) clearTimeout(drainTimer);
    void dispatcher.destroy().catch(() => undefined);
  }

  // Only now, with no stream left in flight, is any text tokenized: the timing never waits for it.
  finalizeRecords(records.values(), options.tokenCounter ?? null);
  const endedAt = performance.now();
  // A benchmark cut off during its warm-up measured nothing: its whole time was warm-up.
  const split = measuredAt ?? endedAt;
  options.onTimeSpent?.({ warmupMs: split - calledAt, benchmarkMs: endedAt - split });
  if (stopped.aborted) {
    const reason = describeAbort(stopped);
    for (const prompt of prompts) {
      if (!records.has(prompt.id)) records.set(prompt.id, { ok: false, kind: "engine_died", reason });
    }
  }
  return records;
}
