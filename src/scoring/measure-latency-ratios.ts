/*
 * The round's tail latency and throughput, candidate over baseline, from the times a card keeps for
 * every prompt in every run: what a minority regression shows when the median over prompts hides it
 * (judge-regression.ts). A fresh round, a merge and the app's re-gate compute them from the same numbers.
 */

/** One prompt in one run, as far as the ratios need it: its times at the compared length, and when each request was sent. */
export interface TimedRun {
  /** k; null when not compared. */
  comparedTokens?: number | null;
  /** Milliseconds from sending to the chunk that reached k tokens; null when not timed. */
  baselineMs?: number | null;
  candidateMs?: number | null;
  /** Milliseconds from the start of the engine's benchmark run to sending this request; absent on older cards. */
  baselineSentMs?: number | null;
  candidateSentMs?: number | null;
}

export interface LatencyRatios {
  /** The 90th percentile of the time to the compared length, candidate over baseline: the geometric mean of each run's; null untimed. */
  e2eP90: number | null;
  /**
   * Output tokens per second over each run's span (first request sent to the last compared token), candidate over baseline: the
   * geometric mean of each run's; null where a card does not say when requests were sent.
   */
  throughput: number | null;
}

/** The p-quantile of a sorted list by linear interpolation between order statistics. */
function quantileOfSorted(sorted: readonly number[], p: number): number {
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  const low = sorted[below] as number;
  return low + ((sorted[above] as number) - low) * (position - below);
}

function geometricMean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
}

/** One engine's span in a run: from its first request sent to its last compared token. */
function span(runs: ReadonlyArray<{ sent: number; time: number }>): number {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const { sent, time } of runs) {
    start = Math.min(start, sent);
    end = Math.max(end, sent + time);
  }
  return end - start;
}

/**
 * The ratios over the given runs (each a list of its timed prompts). Only prompt-runs timed on both
 * sides count, as in the round score; a run with fewer than two of them adds nothing.
 */
export function measureLatencyRatios(runs: ReadonlyArray<readonly TimedRun[]>): LatencyRatios {
  const p90s: number[] = [];
  const throughputs: number[] = [];
  let sentEverywhere = true;
  for (const run of runs) {
    const timed = run.filter(
      (entry): entry is TimedRun & { baselineMs: number; candidateMs: number; comparedTokens: number } =>
        typeof entry.baselineMs === "number" &&
        typeof entry.candidateMs === "number" &&
        typeof entry.comparedTokens === "number" &&
        entry.baselineMs > 0 &&
        entry.candidateMs > 0,
    );
    if (timed.length < 2) continue;
    const baseline = timed.map((entry) => entry.baselineMs).sort((a, b) => a - b);
    const candidate = timed.map((entry) => entry.candidateMs).sort((a, b) => a - b);
    p90s.push(quantileOfSorted(candidate, 0.9) / quantileOfSorted(baseline, 0.9));
    if (!timed.every((entry) => typeof entry.baselineSentMs === "number" && typeof entry.candidateSentMs === "number")) {
      sentEverywhere = false;
      continue;
    }
    const baselineSpan = span(timed.map((entry) => ({ sent: entry.baselineSentMs as number, time: entry.baselineMs })));
    const candidateSpan = span(timed.map((entry) => ({ sent: entry.candidateSentMs as number, time: entry.candidateMs })));
    // The same tokens on both sides (each prompt at its compared length): throughput's ratio is the spans' inverse ratio.
    if (baselineSpan > 0 && candidateSpan > 0) throughputs.push(baselineSpan / candidateSpan);
  }
  return { e2eP90: geometricMean(p90s), throughput: sentEverywhere ? geometricMean(throughputs) : null };
}
