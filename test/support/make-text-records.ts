import type { ChunkArrival, CompletedRequest } from "../../src/scoring/request-record.js";

/**
 * A completed request that streamed `pieces` of content (one chunk each, `itlMs` apart after
 * `ttftMs`), with the engine's claimed cumulative counts per chunk (default: one a chunk), as
 * sendStreamingRequest records it before speedgate counts.
 */
export function textStream(
  pieces: string[],
  options: { ttftMs?: number; itlMs?: number; claims?: number[]; reasoning?: string[] } = {},
): CompletedRequest {
  const reasoningPieces = options.reasoning ?? [];
  const all = [...reasoningPieces.map((text) => ({ text, reasoning: true })), ...pieces.map((text) => ({ text, reasoning: false }))];
  const chunks: ChunkArrival[] = [];
  const contentEnds: number[] = [];
  const reasoningEnds: number[] = [];
  let content = "";
  let reasoning = "";
  all.forEach((piece, index) => {
    if (piece.reasoning) reasoning += piece.text;
    else content += piece.text;
    chunks.push({ tMs: (options.ttftMs ?? 10) + index * (options.itlMs ?? 5), tokens: options.claims?.[index] ?? index + 1 });
    contentEnds.push(content.length);
    reasoningEnds.push(reasoning.length);
  });
  const last = chunks.at(-1);
  return {
    ok: true,
    chunks,
    outputTokens: last?.tokens ?? 0,
    finishReason: "stop",
    endMs: (last?.tMs ?? 0) + 1,
    tokensEstimated: false,
    text: { content, reasoning, contentEnds, reasoningEnds },
    claimedTokens: last?.tokens ?? null,
    countedBy: "engine",
  };
}
