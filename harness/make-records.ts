import type { ChunkArrival, CompletedRequest, FailedRequest } from "../src/scoring/request-record.js";

/**
 * A completed request whose chunks each carry `tokensPerChunk` tokens, the first at `ttftMs` and then
 * one every `itlMs`. Hand-made timelines keep the scoring tests independent of any engine.
 */
export function steadyStream(options: {
  tokens: number;
  ttftMs: number;
  itlMs: number;
  tokensPerChunk?: number;
  finishReason?: string;
}): CompletedRequest {
  const perChunk = options.tokensPerChunk ?? 1;
  const chunks: ChunkArrival[] = [];
  let tokens = 0;
  let t = options.ttftMs;
  while (tokens < options.tokens) {
    tokens = Math.min(options.tokens, tokens + perChunk);
    chunks.push({ tMs: t, tokens });
    t += options.itlMs;
  }
  const last = chunks[chunks.length - 1];
  return {
    ok: true,
    chunks,
    outputTokens: options.tokens,
    finishReason: options.finishReason ?? "length",
    endMs: (last?.tMs ?? options.ttftMs) + 1,
    tokensEstimated: false,
  };
}

export function explicitStream(chunks: ChunkArrival[], endMs?: number): CompletedRequest {
  const last = chunks[chunks.length - 1];
  return {
    ok: true,
    chunks,
    outputTokens: last?.tokens ?? 0,
    finishReason: "stop",
    endMs: endMs ?? (last?.tMs ?? 0) + 1,
    tokensEstimated: false,
  };
}

export function failedRequest(reason: string, kind: FailedRequest["kind"] = "http_error"): FailedRequest {
  return { ok: false, kind, reason };
}
