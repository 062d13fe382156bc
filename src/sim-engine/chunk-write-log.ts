/**
 * When the sim-engine wrote what, on the machine-wide monotonic clock (see monotonic-clock.ts), so a
 * client in another process can subtract its arrival times from these.
 */
export interface SimRequestRecord {
  /** 1-based order in which requests arrived. */
  seq: number;
  /** The prompt whose content the request carried (profile prompts), null for other content. */
  promptId: string | null;
  /** What named the prompt in the request (a header or field a special-casing engine would read); null when nothing did. */
  promptIdHint: string | null;
  /** Set when the answer-cache cheat had answered this content before and answered it from its cache. */
  answeredBefore?: boolean;
  path: string;
  receivedAtMs: number;
  /** Write time of each token-bearing chunk, in stream order. */
  chunkWritesMs: number[];
  /** When the last byte was written or the request failed; null while streaming. */
  finishedAtMs: number | null;
  outcome: "streaming" | "completed" | "http500" | "malformed_sse" | "client_closed" | "engine_died" | "bad_request";
}

export interface ChunkWriteLog {
  readonly requests: SimRequestRecord[];
}
