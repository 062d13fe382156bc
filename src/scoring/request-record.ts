/**
 * What the benchmark client records for one request to one engine. Times are milliseconds on a
 * monotonic clock, relative to the moment the request was sent, so records from two engines that ran
 * minutes apart compare directly.
 */
export interface ChunkArrival {
  /** Milliseconds from sending the request to this chunk's arrival. */
  tMs: number;
  /** Cumulative output tokens (content plus reasoning) after this chunk. */
  tokens: number;
}

export type RequestErrorKind = "http_error" | "stream_error" | "timeout" | "connection_error" | "engine_died" | "not_sent";

/**
 * What a stream held: its content and reasoning texts, and how much of each (UTF-16 length) had
 * arrived after each chunk, parallel to the record's chunks. Kept so speedgate can count tokens
 * itself after the benchmark, and compare the two engines' answers.
 */
export interface StreamedText {
  content: string;
  reasoning: string;
  contentEnds: number[];
  reasoningEnds: number[];
}

/**
 * What the engine itself says one request cost (llama.cpp's `timings`): its prompt processing and its
 * decoding, without the queueing and the network a client's clock includes.
 */
export interface EngineRequestTimes {
  promptMs: number;
  /** Prompt tokens it processed (not those it reused from its prompt cache). */
  promptTokens: number;
  decodeMs: number;
  /** Tokens it generated, the unstreamed end-of-sequence token included. */
  decodeTokens: number;
}

/** Who counted a record's tokens: speedgate, with the model's tokenizer, or the engine itself (its usage, bounded by what it streamed). */
export type TokenCounting = "tokenizer" | "engine";

export interface CompletedRequest {
  ok: true;
  /** Per chunk, the cumulative tokens: speedgate's count when `countedBy` is "tokenizer", else the engine's. */
  chunks: ChunkArrival[];
  outputTokens: number;
  finishReason: string | null;
  /** Milliseconds from sending to the end of the stream. */
  endMs: number;
  /** True when token counts were estimated (one a delta) rather than reported by the server. */
  tokensEstimated: boolean;
  promptTokens?: number | null;
  /** The streamed text; absent only in records made by hand. */
  text?: StreamedText;
  /** The engine's own final count (usage.completion_tokens), recorded beside speedgate's; null when it reported none. */
  claimedTokens?: number | null;
  /** Absent means "engine": a record that was never counted by speedgate. */
  countedBy?: TokenCounting;
  /** The token ids speedgate counted, reasoning and content apart, for comparing answers token by token. */
  tokenIds?: { reasoning: Int32Array; content: Int32Array };
  /** Why the engine's claimed counts cannot be true (more tokens than its stream could hold); null or absent when they can. */
  implausible?: string | null;
  /**
   * Milliseconds from the start of the benchmark run (its first scheduled send) to sending this request: throughput needs the run's span.
   */
  sentMs?: number;
  /** The engine's own account of the request's time, when its stream gives one (llama.cpp); absent or null otherwise. */
  engineTimes?: EngineRequestTimes | null;
}

export interface FailedRequest {
  ok: false;
  kind: RequestErrorKind;
  reason: string;
  /** What had streamed before the failure, for the card's per-prompt row. */
  chunks?: ChunkArrival[];
  endMs?: number;
}

export type RequestRecord = CompletedRequest | FailedRequest;

/**
 * T(k): time from sending to the arrival of the chunk that brought the stream to at least k tokens.
 * T(0) is the end of the stream, which only matters when both engines answered nothing.
 */
export function timeToTokens(record: CompletedRequest, k: number): number {
  if (k <= 0) return record.endMs;
  // Chunks are in arrival order with non-decreasing counts: binary search for the first reaching k.
  const { chunks } = record;
  let low = 0;
  let high = chunks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((chunks[mid]?.tokens ?? 0) >= k) high = mid;
    else low = mid + 1;
  }
  return chunks[low]?.tMs ?? record.endMs;
}

export function timeToFirstTokenMs(record: CompletedRequest): number | null {
  const first = record.chunks.find((chunk) => chunk.tokens > 0);
  return first ? first.tMs : null;
}
