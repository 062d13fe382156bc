/**
 * A round's run budget (`bench.runs: { min, max }`): at least `min` and at most `max` runs of each
 * engine, with the sequential rule deciding after each look whether to pass, fail or go on.
 */
export interface RunBudget {
  min: number;
  max: number;
}

/** The most runs a budget may allow: past it a round costs more engine time than any answer is worth, and its bounds take long to place. */
export const MAX_BUDGET_RUNS = 32;

/** Which engine goes first in each run; the looks follow it (see lookRuns). */
export type SequentialOrder = "counterbalanced" | "baseline-first";

/**
 * The default budget. Two runs are the fewest whose engine starts say anything of how much starts
 * differ (two starts of each engine: 2 degrees of freedom), and a 1.5× speedup on a runner whose
 * starts differ by 8% is decided there in 19 rounds of 20. Twenty-four are what a 10% speedup needs
 * to pass 9 times in 10 on a runner noisier than that: the end-to-end rounds of #43, whose run scores
 * spread 9.2% and whose two starts of a run share part of the machine's load, passed it in 84% of
 * rounds with at most 16 (95% with 24); on a runner whose starts differ by 2% the round is still
 * decided after 2 to 4 runs (bench/sequential-gate-statistics.ts, docs/scoring-statistics.md).
 */
export const DEFAULT_RUN_BUDGET: RunBudget = { min: 2, max: 24 };

/**
 * The one-sided error rate the sequential rule spends over all its looks: an unchanged engine passes
 * at most 4% of rounds, however many looks the round takes. Below the 5% the gate promises, so that
 * a study of a few hundred rounds shows it under 5% (its simulated rate sits at 3 to 4%).
 */
export const SEQUENTIAL_ALPHA = 0.04;

/**
 * Of that, what the first look spends. Two starts of each engine estimate their spread with 2
 * degrees of freedom, so Student's t at the first look is wide (3.6 at 3.5%). Most of the error goes
 * there because that is where a clear effect should stop: with 2.75% a 1.5× speedup stopped at 2 runs
 * in 82.5% of rounds on the end-to-end runner of #43, with 3.5% in 91.8%. The 0.5% left for the later
 * looks costs a 10% speedup little there: by 24 runs it still passes 95% of rounds.
 */
export const FIRST_LOOK_ALPHA = 0.035;

/**
 * The chance the futility bound stops a candidate that is TARGET_SPEEDUP faster than the bar, spent
 * over the looks in proportion to their runs: it costs a 10% speedup at most 5 points of power, and
 * lets an unchanged engine stop after 4 runs on a quiet runner instead of running to the budget.
 */
export const FUTILITY_BETA = 0.05;

/** The speedup over the bar the budget is meant to detect: the futility bound rules it out. */
export const TARGET_SPEEDUP = 1.1;

/** The power quoted for "the smallest speedup this runner can show". */
export const SEQUENTIAL_POWER = 0.95;

/**
 * Runs after which the rule looks, in order. With the counterbalanced order a look needs a whole pair
 * (a run with the baseline first and one with the candidate first), so the looks are at min, min + 2,
 * …, max; with the baseline first in every run there is no pair to wait for, and the rule looks after
 * every run.
 */
export function lookRuns(budget: RunBudget, order: SequentialOrder = "counterbalanced"): number[] {
  const step = order === "counterbalanced" ? 2 : 1;
  const looks: number[] = [];
  for (let runs = budget.min; runs <= budget.max; runs += step) looks.push(runs);
  if (looks.at(-1) !== budget.max) looks.push(budget.max);
  return looks;
}

/**
 * The error spent by each look (Lan–DeMets): FIRST_LOOK_ALPHA at the first, the rest in proportion to
 * the runs added after it (a linear spending function of the information past the first look). A
 * budget of one look spends all of it there.
 */
export function spendAlpha(looks: readonly number[], alpha = SEQUENTIAL_ALPHA, firstLook = FIRST_LOOK_ALPHA): number[] {
  const first = looks[0];
  const last = looks.at(-1);
  if (first === undefined || last === undefined) return [];
  if (looks.length === 1) return [alpha];
  const spentFirst = Math.min(alpha, firstLook);
  return looks.map((runs, index) => {
    if (index === 0) return spentFirst;
    const before = looks[index - 1] as number;
    return ((alpha - spentFirst) * (runs - before)) / (last - first);
  });
}

/** The futility error each look spends: FUTILITY_BETA in proportion to the runs it adds. */
export function spendBeta(looks: readonly number[], beta = FUTILITY_BETA): number[] {
  const last = looks.at(-1);
  if (last === undefined) return [];
  return looks.map((runs, index) => (beta * (runs - (index === 0 ? 0 : (looks[index - 1] as number)))) / last);
}

/** Why a budget cannot be used with this order, or null. */
export function describeBudgetProblem(budget: RunBudget, order: SequentialOrder): string | null {
  if (budget.min > budget.max) return `expected min (${budget.min}) to be at most max (${budget.max})`;
  if (budget.min < 2) return "expected min to be at least 2: one start of each engine says nothing of how much starts differ";
  if (order === "counterbalanced" && (budget.min % 2 !== 0 || budget.max % 2 !== 0)) {
    return (
      `expected even min and max with bench.order counterbalanced (${budget.min} and ${budget.max}): the rule looks after ` +
      "whole pairs of runs, one with the baseline first and one with the candidate first"
    );
  }
  return null;
}
