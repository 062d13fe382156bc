import type { RoundEstimate } from "../scoring/pool-round-estimates.js";
import type { ScenarioEstimate } from "./scenario-estimates.js";

/*
 * A drift round scores main's head against the good commit. A scenario has drifted when its interval
 * lies wholly below watch.maxDrift: the interval rule of the gate's maxRegression, so one round of an
 * unchanged main raises an alarm only as often as a 95% interval misses by more than the bar.
 */

/**
 * - `drifted`: slower than the bar beyond doubt (the interval's high end below it);
 * - `within`: not slower than the bar (the interval's low end at or above it);
 * - `unclear`: the interval straddles the bar;
 * - `none`: nothing was scored.
 */
export type DriftVerdict = "drifted" | "within" | "unclear" | "none";

export interface ScenarioDrift extends ScenarioEstimate {
  verdict: DriftVerdict;
}

export interface DriftJudgement {
  scenarios: ScenarioDrift[];
  /** The drifted scenarios, slowest first. */
  drifted: ScenarioDrift[];
  /** A scenario drifted: the watch raises an alarm (and bisects). */
  alarm: boolean;
  /** No scenario scored anything: the round says nothing about main. */
  failed: boolean;
  /** Every scenario faster beyond doubt (its interval's low end above 1): main moved up, and the watch's good commit with it. */
  improved: boolean;
}

/** The ends a verdict reads: the interval, or the score at both ends when the round had too few prompts for one. */
export function rangeOf(estimate: RoundEstimate): { low: number; high: number } {
  return estimate.interval ?? { low: estimate.score, high: estimate.score };
}

export function judgeScenarioDrift(estimate: RoundEstimate | null, maxDrift: number): DriftVerdict {
  if (estimate === null) return "none";
  const { low, high } = rangeOf(estimate);
  if (high < maxDrift) return "drifted";
  if (low >= maxDrift) return "within";
  return "unclear";
}

export function judgeDrift(estimates: readonly ScenarioEstimate[], maxDrift: number): DriftJudgement {
  const scenarios = estimates.map((entry) => ({ ...entry, verdict: judgeScenarioDrift(entry.estimate, maxDrift) }));
  const drifted = scenarios
    .filter((entry) => entry.verdict === "drifted")
    .sort((a, b) => (a.estimate?.score ?? 1) - (b.estimate?.score ?? 1));
  const scored = scenarios.filter((entry) => entry.estimate !== null);
  return {
    scenarios,
    drifted,
    alarm: drifted.length > 0,
    failed: scored.length === 0,
    improved: scored.length === scenarios.length && scored.every((entry) => entry.estimate !== null && rangeOf(entry.estimate).low > 1),
  };
}
