import { type PooledEstimate, poolRoundEstimates } from "../scoring/pool-round-estimates.js";
import { type DriftVerdict, judgeScenarioDrift } from "./judge-drift.js";

/*
 * watch.everyMerge (docs/watching-main.md): each merge to main scored against its first parent after it
 * lands. A merge is the regression when a scenario's interval lies wholly below watch.maxDrift against
 * its parent: the drift round's interval rule, on one merge instead of a night's. A round whose interval
 * straddles the bar is repeated up to watch.maxRepeats more times, its rounds pooled by inverse variance
 * on the log scale, exactly as a bisection's step (src/watch/plan-bisection.ts); still straddling, the
 * merge is undecided, never guessed.
 */

/** One round of a merge against its parent: each scenario's score (null: it scored nothing). */
export interface MergeRound {
  scores: readonly { scenario: string | null; score: number | null; interval: { low: number; high: number } | null }[];
}

export interface MergeScenario {
  name: string | null;
  /** The scenario's rounds pooled; null when none scored it. */
  pooled: PooledEstimate | null;
  verdict: DriftVerdict;
}

/**
 * - `regression`: a scenario is slower than the bar beyond doubt (its pooled interval wholly below it): name the merge;
 * - `within`: no scenario drifted and none straddles: the merge held main's speed;
 * - `repeat`: a scenario straddles the bar and repeats remain: run the round again;
 * - `undecided`: a scenario still straddles after every repeat: said so, never guessed;
 * - `nothing`: no round scored anything (an engine failed on the runner): run again while repeats remain, else said so.
 */
export type MergeVerdict = "regression" | "within" | "repeat" | "undecided" | "nothing";

export interface MergeJudgement {
  verdict: MergeVerdict;
  scenarios: MergeScenario[];
  /** The drifted scenarios, slowest first (the first is the one the report names). */
  drifted: MergeScenario[];
  /** Rounds judged. */
  rounds: number;
}

export function judgeMergeRounds(rounds: readonly MergeRound[], settings: { maxDrift: number; maxRepeats: number }): MergeJudgement {
  const names: (string | null)[] = [];
  for (const round of rounds) for (const entry of round.scores) if (!names.includes(entry.scenario)) names.push(entry.scenario);
  const scenarios: MergeScenario[] = names.map((name) => {
    const estimates = rounds.flatMap((round) =>
      round.scores.flatMap((entry) =>
        entry.scenario === name && entry.score !== null && entry.score > 0 ? [{ score: entry.score, interval: entry.interval }] : [],
      ),
    );
    const pooled = poolRoundEstimates(estimates);
    return { name, pooled, verdict: judgeScenarioDrift(pooled, settings.maxDrift) };
  });
  const drifted = scenarios.filter((entry) => entry.verdict === "drifted").sort((a, b) => (a.pooled?.score ?? 1) - (b.pooled?.score ?? 1));
  const repeatsLeft = rounds.length < settings.maxRepeats + 1;
  const verdict: MergeVerdict =
    drifted.length > 0
      ? "regression"
      : scenarios.some((entry) => entry.verdict === "unclear")
        ? repeatsLeft
          ? "repeat"
          : "undecided"
        : scenarios.every((entry) => entry.verdict === "none")
          ? repeatsLeft
            ? "repeat"
            : "nothing"
          : "within";
  return { verdict, scenarios, drifted, rounds: rounds.length };
}
