import { createBenchAgent } from "../../src/bench/create-bench-agent.js";
import { monotonicOffsetMs } from "../../src/bench/monotonic-clock.js";
import { sendStreamingRequest } from "../../src/bench/send-streaming-request.js";
import type { RequestRecord } from "../../src/scoring/request-record.js";
import { percentileOfSorted } from "./percentile.js";
import { startSimEngineProcess } from "./start-sim-engine-process.js";

export interface StreamLevel {
  streams: number;
  ttftMs: number;
  itlMs: number;
  outputTokens: number;
}

export interface StreamErrorResult extends StreamLevel {
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
}

const settings = { model: "sim-model", maxTokens: 1_000_000, thinking: false, requestTimeoutS: 120 };

async function sendAll(url: string, ids: string[], dispatcher: ReturnType<typeof createBenchAgent>): Promise<Array<{ id: string; sendTime: number; record: RequestRecord }>> {
  return await Promise.all(
    ids.map(async (id) => {
      let sendTime = 0;
      const record = await sendStreamingRequest({
        baseUrl: url,
        prompt: { id, messages: [{ role: "user", content: id }] },
        settings,
        dispatcher,
        onSend: (time) => (sendTime = time),
      });
      return { id, sendTime, record };
    }),
  );
}

/**
 * Timing error of the client at one load: for every token-bearing chunk, the client's arrival time
 * minus the engine's record of writing it. Both sides read CLOCK_MONOTONIC (performance.now() plus a
 * per-process offset to process.hrtime, see monotonic-clock.ts), which every process on the machine
 * shares, so the difference is the wire plus the client's own delay, with no clock skew in it.
 * (performance.timeOrigin + now() is not used: timeOrigin is taken from the wall clock at process
 * start, and two processes can disagree on it by more than the sub-millisecond errors measured here.)
 */
export async function measureStreamErrors(level: StreamLevel): Promise<StreamErrorResult> {
  const engine = await startSimEngineProcess([
    "--ttft-ms",
    String(level.ttftMs),
    "--itl-ms",
    String(level.itlMs),
    "--output-tokens",
    String(level.outputTokens),
  ]);
  const dispatcher = createBenchAgent();
  const offset = monotonicOffsetMs();
  let results: Array<{ id: string; sendTime: number; record: RequestRecord }>;
  let clientCpuMs = 0;
  try {
    // Warm-up: opens the connections and lets both processes' JITs settle; not measured.
    await sendAll(engine.url, Array.from({ length: level.streams }, (_, index) => `warm-${index}`), dispatcher);
    const cpuBefore = process.cpuUsage();
    results = await sendAll(engine.url, Array.from({ length: level.streams }, (_, index) => `run-${index}`), dispatcher);
    const cpu = process.cpuUsage(cpuBefore);
    clientCpuMs = (cpu.user + cpu.system) / 1000;
  } finally {
    await dispatcher.close();
  }
  const serverRecords = await engine.stop();
  const writesById = new Map(serverRecords.map((record) => [record.promptId ?? "", record.chunkWritesMs]));

  const errors: number[] = [];
  let firstArrival = Number.POSITIVE_INFINITY;
  let lastArrival = Number.NEGATIVE_INFINITY;
  let failedRequests = 0;
  let unmatchedChunks = 0;
  for (const { id, sendTime, record } of results) {
    const chunks = record.ok ? record.chunks : (record.chunks ?? []);
    if (!record.ok) failedRequests++;
    const writes = writesById.get(id) ?? [];
    const matched = Math.min(writes.length, chunks.length);
    unmatchedChunks += Math.max(writes.length, chunks.length) - matched;
    for (let index = 0; index < matched; index++) {
      const arrival = offset + sendTime + (chunks[index]?.tMs ?? 0);
      errors.push(arrival - (writes[index] ?? 0));
      if (arrival < firstArrival) firstArrival = arrival;
      if (arrival > lastArrival) lastArrival = arrival;
    }
  }
  const sorted = Float64Array.from(errors).sort();
  const spanS = (lastArrival - firstArrival) / 1000;
  return {
    ...level,
    chunks: errors.length,
    chunksPerSecond: spanS > 0 ? errors.length / spanS : 0,
    medianMs: percentileOfSorted(sorted, 50),
    p99Ms: percentileOfSorted(sorted, 99),
    maxMs: percentileOfSorted(sorted, 100),
    failedRequests,
    unmatchedChunks,
    clientCpuUsPerChunk: errors.length > 0 ? (clientCpuMs * 1000) / errors.length : 0,
  };
}

export function describeLevel(result: StreamErrorResult): string {
  return `${String(result.streams).padStart(4)} streams, itl ${result.itlMs} ms: ${result.chunks} chunks at ${Math.round(result.chunksPerSecond)}/s, error median ${result.medianMs.toFixed(3)} ms, p99 ${result.p99Ms.toFixed(3)} ms, max ${result.maxMs.toFixed(3)} ms, client CPU ${result.clientCpuUsPerChunk.toFixed(1)} µs/chunk${result.failedRequests ? `, ${result.failedRequests} failed` : ""}${result.unmatchedChunks ? `, ${result.unmatchedChunks} unmatched` : ""}`;
}

