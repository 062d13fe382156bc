import type { RunsSetting } from "../config/bench-settings-schema.js";
import { mostRuns, runBudgetOf } from "../config/run-plan.js";
import { type SequentialOrder, lookRuns } from "../scoring/sequential-design.js";

/** How many runs each of a round's workloads gets, decided as the round goes. */
export interface WorkloadRunPlan {
  /** The most runs the round can take: the most any workload allows. */
  readonly roundRuns: number;
  /** Whether workload `index` is benchmarked in run `run` (1-based). */
  serves(index: number, run: number): boolean;
  /**
   * After run `run`: each workload with a budget whose runs reached one of its looks asks `stops`
   * whether its sequential rule stops it there; one that stops is not benchmarked again.
   */
  afterRun(run: number, stops: (index: number) => boolean): void;
  /** Whether any workload is still to be benchmarked after run `run`. */
  goesOn(run: number): boolean;
}

/**
 * The run plan of a round's workloads (scenarios): a fixed number runs that many times, as always; a
 * budget runs from its min to its max, its rule looking after each pair (lookRuns) and stopping it
 * once it decides. One engine start serves every workload still going, so the round goes on while any
 * workload is undecided, and a decided one costs nothing more.
 */
export function planWorkloadRuns(workloads: ReadonlyArray<{ runs: RunsSetting; order: SequentialOrder }>): WorkloadRunPlan {
  const last = workloads.map(({ runs }) => mostRuns(runs));
  const looks = workloads.map(({ runs, order }) => {
    const budget = runBudgetOf(runs);
    return budget ? new Set(lookRuns(budget, order)) : new Set<number>();
  });
  return {
    roundRuns: Math.max(...last),
    serves: (index, run) => run <= (last[index] ?? 0),
    afterRun(run, stops) {
      looks.forEach((at, index) => {
        if (run < (last[index] ?? 0) && at.has(run) && stops(index)) last[index] = run;
      });
    },
    goesOn: (run) => last.some((most) => run < most),
  };
}
