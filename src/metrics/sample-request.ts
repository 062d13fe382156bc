import { type CompletedRequest, timeToFirstTokenMs, timeToTokens } from "../scoring/request-record.js";

/** What one request contributes to the serving metrics, with the stream cut at the compared length. */
export interface RequestSample {
  ttftMs: number;
  /** (T(k) − TTFT) / (k − 1); null when k is 1 (vLLM and SGLang leave such requests out of TPOT too). */
  tpotMs: number | null;
  /** Gaps between consecutive chunks that brought tokens, up to the chunk that reached k. */
  itlMs: number[];
  /** T(k): from sending to the chunk that reached k tokens, the time the round score compares. */
  e2eMs: number;
  tokens: number;
  /** When the request was sent, from the start of its benchmark run (0 when the record does not say). */
  sentMs: number;
}

/**
 * The definitions of vLLM's and SGLang's benchmark clients (TTFT to the first token-bearing chunk,
 * TPOT over the tokens after the first, ITL per chunk), applied to the first k tokens of the stream
 * so that both engines are measured over the same output.
 */
export function sampleRequest(record: CompletedRequest, k: number): RequestSample | null {
  if (k < 1) return null;
  const ttftMs = timeToFirstTokenMs(record);
  if (ttftMs === null) return null;
  const e2eMs = timeToTokens(record, k);
  const itlMs: number[] = [];
  let previousTokens = 0;
  let previousArrival: number | null = null;
  for (const chunk of record.chunks) {
    if (chunk.tokens <= previousTokens) continue;
    if (previousArrival !== null) itlMs.push(chunk.tMs - previousArrival);
    previousArrival = chunk.tMs;
    previousTokens = chunk.tokens;
    if (chunk.tokens >= k) break;
  }
  return {
    ttftMs,
    tpotMs: k > 1 ? (e2eMs - ttftMs) / (k - 1) : null,
    itlMs,
    e2eMs,
    tokens: k,
    sentMs: record.sentMs ?? 0,
  };
}
