import type { WriteStream } from "node:fs";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import type { AnswerWords } from "./answer-text.js";
import type { SimRequestRecord } from "./chunk-write-log.js";
import type { DecodeBatch } from "./decode-batch.js";
import type { SimProfile } from "./sim-profile.js";

/** A request being answered: its response, its record, and the timer of its next chunk. */
export interface ActiveStream {
  res: ServerResponse;
  record: SimRequestRecord;
  timer: NodeJS.Timeout | null;
}

/**
 * Everything one running sim-engine knows and changes, in one place: what it answers with, the streams
 * in flight, the requests it has recorded, and whether it is up, healthy or dead.
 */
export interface SimEngineState {
  readonly profile: SimProfile;
  readonly words: AnswerWords;
  readonly batch: DecodeBatch;
  /** Added to performance.now() for the machine-wide monotonic clock the records use (monotonic-clock.ts). */
  readonly clockOffsetMs: number;
  /** The `created` field of every answer, in Unix seconds. */
  readonly created: number;
  readonly active: Set<ActiveStream>;
  readonly sockets: Set<Socket>;
  readonly writeLog: { requests: SimRequestRecord[] };
  readonly keepRecords: boolean;
  readonly chunkLog: WriteStream | null;
  /** Request contents the answer-cache cheat has answered: the same content again comes back faster. */
  readonly answered: Set<string>;
  seq: number;
  completed: number;
  /** Streamed answers whose end has been sent (counted when it is written, before the flush): what holdAfterRequests counts. */
  ended: number;
  healthy: boolean;
  dead: boolean;
}

/** Now, on the records' clock. */
export function stampNow(engine: SimEngineState): number {
  return performance.now() + engine.clockOffsetMs;
}

export function newRecord(
  engine: SimEngineState,
  promptId: string | null,
  path: string,
  receivedAtMs: number,
  promptIdHint: string | null = null,
): SimRequestRecord {
  const record: SimRequestRecord = {
    seq: ++engine.seq,
    promptId,
    promptIdHint,
    path,
    receivedAtMs,
    chunkWritesMs: [],
    finishedAtMs: null,
    outcome: "streaming",
  };
  if (engine.keepRecords) engine.writeLog.requests.push(record);
  return record;
}

/** Ends a request's record once (a later outcome for the same request is ignored) and appends it to the chunk log. */
export function finishRecord(engine: SimEngineState, record: SimRequestRecord, outcome: SimRequestRecord["outcome"]): void {
  if (record.finishedAtMs !== null) return;
  record.finishedAtMs = stampNow(engine);
  record.outcome = outcome;
  engine.chunkLog?.write(`${JSON.stringify(record)}\n`);
}

/** Stops every stream in flight, recording each as ended by the engine. */
export function abandonStreams(engine: SimEngineState): void {
  for (const stream of engine.active) {
    if (stream.timer) clearTimeout(stream.timer);
    finishRecord(engine, stream.record, "engine_died");
  }
  engine.active.clear();
}
