import type { RunBudget } from "../scoring/sequential-design.js";
import type { RunsSetting } from "./bench-settings-schema.js";

/** bench.runs as a budget, or null for a fixed number of runs. */
export function runBudgetOf(runs: RunsSetting): RunBudget | null {
  return typeof runs === "object" ? runs : null;
}

/** The most runs of each engine the setting allows: the number, or the budget's max. */
export function mostRuns(runs: RunsSetting): number {
  return typeof runs === "object" ? runs.max : runs;
}

/**
 * The runs of each A/A round of a calibration: the number, or a budget's min. A budget's rule reads
 * the run-to-run spread from the A/A rounds, which any number of runs measures; the fewest keep the
 * study as cheap as the rounds it calibrates can be.
 */
export function calibrationRunsOf(runs: RunsSetting): number {
  return typeof runs === "object" ? runs.min : runs;
}

/** bench.runs in words: "4", "2 to 24 (a budget)". */
export function describeRuns(runs: RunsSetting): string {
  return typeof runs === "object" ? `${runs.min} to ${runs.max} (a budget)` : String(runs);
}
