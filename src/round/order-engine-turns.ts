import type { EngineRole } from "../vocabulary/engine-failure.js";

export type RunOrder = "counterbalanced" | "baseline-first";

/**
 * Which engine starts first in a run (1-based). Counterbalanced, odd runs start the baseline and
 * even runs the candidate: whatever favours the engine that goes second (a warmer machine, a page
 * cache the first one filled) or the first falls on both engines equally over an even number of
 * runs, instead of always on the candidate. `baseline-first` is the order before, kept to measure
 * the difference (bench/default-gate-end-to-end.ts).
 */
export function orderEngineTurns(run: number, order: RunOrder): [EngineRole, EngineRole] {
  return order === "counterbalanced" && run % 2 === 0 ? ["candidate", "baseline"] : ["baseline", "candidate"];
}
