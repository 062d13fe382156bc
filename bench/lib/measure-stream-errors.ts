import { createBenchAgent } from "../../src/client/create-bench-agent.js";
import { finalizeRecords } from "../../src/client/finalize-records.js";
import { keepEventLoopAwake } from "../../src/client/keep-event-loop-awake.js";
import { monotonicOffsetMs } from "../../src/monotonic-clock.js";
import { sendStreamingRequest } from "../../src/client/send-streaming-request.js";
import type { Prompt } from "../../src/prompts/prompt.js";
import type { RequestRecord } from "../../src/scoring/request-record.js";
import { median } from "../../src/scoring/median.js";
import { percentileOfSorted } from "./percentile.js";
import type { TokenCounter } from "../../src/tokens/token-counter.js";
import { startSimEngineProcess } from "./start-sim-engine-process.js";

export interface StreamLevel {
  streams: number;
  ttftMs: number;
  itlMs: number;
  outputTokens: number;
}

export interface RoundErrors {
  /** Token-bearing chunks matched between the client's and the engine's records. */
  chunks: number;
  /** Matched chunks per second of client arrival time, first to last. */
  chunksPerSecond: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  failedRequests: number;
  unmatchedChunks: number;
  /** Client CPU time (user + system) per chunk taken in: what bounds capacity on an idle machine. */
  clientCpuUsPerChunk: number;
  /** Chunks per socket read (chunks of one stream with the same arrival time came in one read). */
  chunksPerRead: number;
  /** Tokens speedgate counted after the round (0 without a tokenizer) and the time that took, per token. */
  tokensCounted: number;
  tokenizeUsPerToken: number;
}

/** A level's figures: the median over its rounds of each round's figure, so one noisy round does not decide. */
export interface StreamErrorResult extends StreamLevel, RoundErrors {
  rounds: RoundErrors[];
  /** The client kept its event loop awake while streams were in flight (bench.busyPoll on). */
  busyPoll: boolean;
}

type Sent = Array<{ id: string; sendTime: number; record: RequestRecord }>;

/**
 * What a round keeps of its requests: arrival times on the shared clock. The records themselves (and their text) are let go at once, so the
 * next round's garbage collection does not have to walk them.
 */
type Arrivals = Array<{ id: string; failed: boolean; times: Float64Array }>;

function keepArrivals(sent: Sent, offset: number): Arrivals {
  return sent.map(({ id, sendTime, record }) => {
    const chunks = record.ok ? record.chunks : (record.chunks ?? []);
    return { id, failed: !record.ok, times: Float64Array.from(chunks, (chunk) => offset + sendTime + chunk.tMs) };
  });
}

const settings = { model: "sim-model", maxTokens: 1_000_000, thinking: false, requestTimeoutS: 120 };

const promptFor = (id: string): Prompt => ({ id, messages: [{ role: "user", content: id }] });

async function sendAll(url: string, ids: string[], dispatcher: ReturnType<typeof createBenchAgent>, busyPoll: boolean): Promise<Sent> {
  // As runBenchmark does with bench.busyPoll: held while the streams are in flight, never while tokenizing.
  const releaseAwake = busyPoll ? keepEventLoopAwake() : null;
  try {
    return await sendEach(url, ids, dispatcher);
  } finally {
    releaseAwake?.();
  }
}

async function sendEach(url: string, ids: string[], dispatcher: ReturnType<typeof createBenchAgent>): Promise<Sent> {
  return await Promise.all(
    ids.map(async (id) => {
      let sendTime = 0;
      const record = await sendStreamingRequest({
        baseUrl: url,
        prompt: promptFor(id),
        settings,
        dispatcher,
        onSend: (time) => (sendTime = time),
      });
      return { id, sendTime, record };
    }),
  );
}

function roundErrors(
  sent: Arrivals,
  writesById: Map<string, number[]>,
  clientCpuMs: number,
  tokenizing: { tokens: number; ms: number },
): RoundErrors {
  const errors: number[] = [];
  let firstArrival = Number.POSITIVE_INFINITY;
  let lastArrival = Number.NEGATIVE_INFINITY;
  let failedRequests = 0;
  let unmatchedChunks = 0;
  let reads = 0;
  for (const { id, failed, times } of sent) {
    if (failed) failedRequests++;
    const writes = writesById.get(id) ?? [];
    const matched = Math.min(writes.length, times.length);
    unmatchedChunks += Math.max(writes.length, times.length) - matched;
    for (let index = 0; index < matched; index++) {
      if (index === 0 || times[index] !== times[index - 1]) reads++;
      const arrival = times[index] ?? 0;
      errors.push(arrival - (writes[index] ?? 0));
      if (arrival < firstArrival) firstArrival = arrival;
      if (arrival > lastArrival) lastArrival = arrival;
    }
  }
  const sorted = Float64Array.from(errors).sort();
  const spanS = (lastArrival - firstArrival) / 1000;
  return {
    chunks: errors.length,
    chunksPerSecond: spanS > 0 ? errors.length / spanS : 0,
    medianMs: percentileOfSorted(sorted, 50),
    p99Ms: percentileOfSorted(sorted, 99),
    maxMs: percentileOfSorted(sorted, 100),
    failedRequests,
    unmatchedChunks,
    clientCpuUsPerChunk: errors.length > 0 ? (clientCpuMs * 1000) / errors.length : 0,
    chunksPerRead: reads > 0 ? errors.length / reads : 0,
    tokensCounted: tokenizing.tokens,
    tokenizeUsPerToken: tokenizing.tokens > 0 ? (tokenizing.ms * 1000) / tokenizing.tokens : 0,
  };
}

/** As runBenchmark does once an engine's streams are over: speedgate's own count of every answer. */
function countTokens(sent: Sent, counter: TokenCounter | null): { tokens: number; ms: number } {
  if (!counter) return { tokens: 0, ms: 0 };
  const started = performance.now();
  finalizeRecords(
    sent.map((entry) => entry.record),
    counter,
  );
  const ms = performance.now() - started;
  const tokens = sent.reduce((sum, entry) => sum + (entry.record.ok ? entry.record.outputTokens : 0), 0);
  return { tokens, ms };
}

const WARM_UP_CHUNKS = 1000;

const middle = (values: number[]): number => median(values) ?? Number.NaN;

/**
 * Timing error of the client at one load: for every token-bearing chunk, the client's arrival time
 * minus the engine's record of writing it. Both sides read CLOCK_MONOTONIC (performance.now() plus a
 * per-process offset to process.hrtime, see monotonic-clock.ts), which every process on the machine
 * shares, so the difference is the wire plus the client's own delay, with no clock skew in it.
 * (performance.timeOrigin + now() is not used: timeOrigin is taken from the wall clock at process
 * start, and two processes can disagree on it by more than the sub-millisecond errors measured here.)
 *
 * Warm-up rounds (connections, and the JIT of a fresh engine process: its hot paths are compiled
 * during the first few hundred chunks, on the same cores the measured rounds use) until at least
 * WARM_UP_CHUNKS chunks were written, then `rounds` measured rounds against one engine process.
 */
export async function measureStreamErrors(
  level: StreamLevel,
  options: { rounds?: number; tokenCounter?: TokenCounter | null; busyPoll?: boolean } = {},
): Promise<StreamErrorResult> {
  const roundCount = options.rounds ?? 3;
  const busyPoll = options.busyPoll ?? false;
  const warmRounds = Math.max(1, Math.ceil(WARM_UP_CHUNKS / (level.streams * level.outputTokens)));
  const warmIds = Array.from({ length: warmRounds }, (_, round) =>
    Array.from({ length: level.streams }, (_, index) => `warm${round}-${index}`),
  );
  const roundIds = Array.from({ length: roundCount }, (_, round) =>
    Array.from({ length: level.streams }, (_, index) => `run${round}-${index}`),
  );
  const engine = await startSimEngineProcess(
    ["--ttft-ms", String(level.ttftMs), "--itl-ms", String(level.itlMs), "--output-tokens", String(level.outputTokens)],
    [...warmIds.flat(), ...roundIds.flat()].map(promptFor),
  );
  const dispatcher = createBenchAgent();
  const offset = monotonicOffsetMs();
  const measured: Array<{ sent: Arrivals; clientCpuMs: number; tokenizing: { tokens: number; ms: number } }> = [];
  try {
    for (const ids of warmIds) await sendAll(engine.url, ids, dispatcher, busyPoll);
    for (const ids of roundIds) {
      const cpuBefore = process.cpuUsage();
      const sent = await sendAll(engine.url, ids, dispatcher, busyPoll);
      const cpu = process.cpuUsage(cpuBefore);
      // After the round's streams are over, as in a real round: it can no longer delay an arrival.
      const tokenizing = countTokens(sent, options.tokenCounter ?? null);
      measured.push({ sent: keepArrivals(sent, offset), clientCpuMs: (cpu.user + cpu.system) / 1000, tokenizing });
    }
  } finally {
    await dispatcher.close();
  }
  const serverRecords = await engine.stop();
  const writesById = new Map(serverRecords.map((record) => [record.promptId ?? "", record.chunkWritesMs]));
  const rounds = measured.map(({ sent, clientCpuMs, tokenizing }) => roundErrors(sent, writesById, clientCpuMs, tokenizing));
  return {
    ...level,
    rounds,
    busyPoll,
    chunks: rounds.reduce((sum, round) => sum + round.chunks, 0),
    chunksPerSecond: middle(rounds.map((round) => round.chunksPerSecond)),
    medianMs: middle(rounds.map((round) => round.medianMs)),
    p99Ms: middle(rounds.map((round) => round.p99Ms)),
    maxMs: Math.max(...rounds.map((round) => round.maxMs)),
    failedRequests: rounds.reduce((sum, round) => sum + round.failedRequests, 0),
    unmatchedChunks: rounds.reduce((sum, round) => sum + round.unmatchedChunks, 0),
    clientCpuUsPerChunk: middle(rounds.map((round) => round.clientCpuUsPerChunk)),
    chunksPerRead: middle(rounds.map((round) => round.chunksPerRead)),
    tokensCounted: rounds.reduce((sum, round) => sum + round.tokensCounted, 0),
    tokenizeUsPerToken: middle(rounds.map((round) => round.tokenizeUsPerToken)),
  };
}

export function describeLevel(result: StreamErrorResult): string {
  const perRound = result.rounds.map((round) => `${round.medianMs.toFixed(2)}/${round.p99Ms.toFixed(2)}`).join(", ");
  return (
    `${String(result.streams).padStart(4)} streams, itl ${result.itlMs} ms, busy poll ${result.busyPoll ? "on" : "off"}: ` +
    `${result.chunks} chunks, ${Math.round(result.chunksPerSecond)}/s, error median ${result.medianMs.toFixed(3)} ms, p99 ` +
    `${result.p99Ms.toFixed(3)} ms (rounds median/p99: ${perRound}), max ${result.maxMs.toFixed(3)} ms, client CPU ` +
    `${result.clientCpuUsPerChunk.toFixed(1)} µs/chunk, ${result.chunksPerRead.toFixed(2)} chunks/read` +
    (result.tokensCounted ? `, tokenized ${result.tokensCounted} tokens at ${result.tokenizeUsPerToken.toFixed(2)} µs/token` : "") +
    (result.failedRequests ? `, ${result.failedRequests} failed` : "") +
    (result.unmatchedChunks ? `, ${result.unmatchedChunks} unmatched` : "")
  );
}
