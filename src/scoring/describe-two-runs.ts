import { runLevelFactor } from "./bootstrap-interval.js";
import type { GateMode } from "./evaluate-gate.js";

/**
 * A warning for bench.runs 2 under the interval rule, or null. Two runs give one degree of freedom
 * for how much engine starts differ, so the interval pushes each run's level out by Student's t with
 * one degree of freedom (9.2× the runs' own difference): a real speedup whose two runs differ by a
 * few percent, as a GPU's do, lands in an interval that holds 1×. One run does not measure that
 * variation at all, and three push by 2.7×, so two is the run count that most often gives no verdict.
 * `where` names the setting ("bench.runs", "scenarios[1].runs").
 */
export function describeTwoRuns(runs: number | object, use: GateMode, where = "bench.runs"): string | null {
  // A budget's first look after two runs reads each engine's two starts apart (two degrees of freedom): the note is for a fixed 2.
  if (runs !== 2 || use !== "interval-low") return null;
  const two = runLevelFactor(2).toFixed(1);
  const three = runLevelFactor(3).toFixed(1);
  return (
    `${where} is 2: with two runs the interval pushes each run's level out ${two}× its difference from the other (Student's t with ` +
    `one degree of freedom), ` +
    `so runs that differ by a few percent give an interval that holds 1× whatever the patch does; use 3 runs or more (${three}× with ` +
    `3), or 1`
  );
}
