import type { EngineFailure, EngineRole } from "../vocabulary/engine-failure.js";

/** Which run an event belongs to, when the round repeats its runs (bench.runs > 1). */
interface InRun {
  run?: number;
  runs?: number;
}

/** In a round with scenarios: the scenario the engine is serving. */
interface InScenario {
  scenario?: string;
}

/** What the round runner reports while it works, for a progress bar or plain log lines. */
export type RoundProgressEvent =
  | { type: "preparing"; role: EngineRole }
  | ({ type: "starting"; role: EngineRole } & InRun)
  | ({ type: "healthy"; role: EngineRole; afterMs: number } & InRun)
  | ({ type: "benchmark"; role: EngineRole; done: number; total: number; failed: number } & InRun & InScenario)
  | ({ type: "quality"; role: EngineRole; done: number; total: number; failed: number } & InRun)
  | ({ type: "stopped"; role: EngineRole } & InRun)
  | ({ type: "failed"; role: EngineRole; failure: EngineFailure } & InRun & InScenario)
  | { type: "skipped"; role: EngineRole; reason: string };
