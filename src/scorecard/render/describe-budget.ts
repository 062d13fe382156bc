import { DEFAULT_BENCH_RUNS } from "../../scoring/evaluate-gate.js";
import { formatBar, formatPercent, formatTimes } from "../../scoring/format-speedup.js";
import { TARGET_SPEEDUP } from "../../scoring/sequential-design.js";
import type { Scorecard, TimeSpent } from "../scorecard-schema.js";
import { formatDuration } from "./describe-time-spent.js";

const runsOf = (runs: number): string => `${runs} run${runs === 1 ? "" : "s"}`;

/**
 * How many runs a round with a run budget took and why it stopped, in words: "decided after 2 runs of
 * each engine", "16 runs, the budget, still undecided: the smallest speedup this runner can show in
 * 16 runs is 1.14×". Null for a card of a fixed number of runs.
 */
export function describeBudgetStop(card: Pick<Scorecard, "settings" | "runs" | "sequential" | "gate">): string | null {
  const budget = card.settings.budget;
  const sequential = card.sequential;
  if (!budget || !sequential) return null;
  const took = card.runs.completed;
  const of = `of a budget of ${budget.min} to ${budget.max}`;
  switch (sequential.stop) {
    case "decided":
      return `decided after ${runsOf(took)} of each engine, ${of}`;
    case "ruled-out":
      return (
        `decided after ${runsOf(took)} of each engine: a speedup of ${formatBar(card.gate.minRoundScore * TARGET_SPEEDUP)} is ruled ` +
        `out, ${of}`
      );
    case "integrity":
      return `stopped after ${runsOf(took)} of each engine, ${of}: what keeps the gate closed is not something more runs fix`;
    case "failure":
      return `stopped after ${runsOf(took)} of each engine, ${of}: an engine failed`;
    case "budget": {
      const can =
        sequential.detectable !== null
          ? `: the smallest speedup this runner can show in ${runsOf(budget.max)} is ${formatTimes(sequential.detectable)}`
          : "";
      return sequential.decision === "pass"
        ? `${runsOf(took)}, the budget: the test passed, but what keeps the gate closed did not clear`
        : `${runsOf(took)}, the budget, still undecided${can}`;
    }
    default:
      return `${runsOf(took)} of at most ${budget.max}: the round stopped before the test decided (it was recomputed under another bar)`;
  }
}

/**
 * What the round's engine time bought against a fixed four runs (bench.runs: 4, the default before
 * budgets): every run starts, warms and benchmarks each engine once, so four would have cost four
 * times one run's mean. Null for a card of a fixed number of runs or one that did not record its time.
 */
export function describeFixedFour(card: Pick<Scorecard, "settings" | "runs">, timeSpent: TimeSpent | null | undefined): string | null {
  if (!card.settings.budget || !timeSpent) return null;
  const runs = Math.max(timeSpent.baseline.starts, timeSpent.candidate.starts);
  if (runs === 0) return null;
  const engine = (side: TimeSpent["baseline"]): number => side.startMs + side.warmupMs + side.benchmarkMs + side.stopMs;
  const spent = engine(timeSpent.baseline) + engine(timeSpent.candidate);
  const four = (spent / runs) * DEFAULT_BENCH_RUNS;
  const difference = four - spent;
  const verdict =
    runs === DEFAULT_BENCH_RUNS
      ? "the same"
      : difference > 0
        ? `${formatDuration(difference)} (${formatPercent(difference / four)}) saved`
        : `${formatDuration(-difference)} more, what deciding at this runner's noise took`;
  return (
    `With a budget of ${card.settings.budget.min} to ${card.settings.budget.max} runs the round took ${runsOf(runs)} of each engine: ` +
    `${formatDuration(spent)} of engine time (GPU time on a GPU runner), where a fixed four would have taken about ` +
    `${formatDuration(four)}: ${verdict}.`
  );
}
