import type { EngineFailure, EngineRole } from "../failure/engine-failure.js";

/** What the round runner reports while it works, for a progress bar or plain log lines. */
export type RoundProgressEvent =
  | { type: "preparing"; role: EngineRole }
  | { type: "starting"; role: EngineRole }
  | { type: "healthy"; role: EngineRole; afterMs: number }
  | { type: "benchmark"; role: EngineRole; done: number; total: number; failed: number }
  | { type: "stopped"; role: EngineRole }
  | { type: "failed"; role: EngineRole; failure: EngineFailure }
  | { type: "skipped"; role: EngineRole; reason: string };
