/*
 * Repeated rounds of one comparison (a bisection step run again because its interval straddled its
 * bar) pooled into one estimate: the fixed-effect, inverse-variance mean of their log scores. Each
 * round's 95% interval gives its standard error on the log scale, (ln high − ln low) / (2 · 1.96);
 * the pooled log score is the mean weighted by 1/SE², its SE is 1/√(Σ 1/SE²), and its interval
 * exp(mean ± 1.96 · SE). A bootstrap interval is not symmetric on the log scale, so this is an
 * approximation, and it treats the rounds as independent draws of one true speedup (the same two
 * commits on the same runner), which is what repeating a round means.
 */

/** What one round said of a comparison: its score and 95% interval (null with too few prompts for one). */
export interface RoundEstimate {
  score: number;
  interval: { low: number; high: number } | null;
}

export interface PooledEstimate {
  score: number;
  /** Null when no round had an interval: the score then stands at both ends. */
  interval: { low: number; high: number } | null;
  /** How many rounds were pooled. */
  rounds: number;
}

/** The two-sided 95% normal quantile, as the cards' intervals are 95%. */
const Z95 = 1.959964;
/** The least standard error a round is given: an interval of zero width would otherwise outweigh every other round. */
const MIN_LOG_SE = 0.0005;

function logStandardError(interval: { low: number; high: number }): number {
  return Math.max(MIN_LOG_SE, (Math.log(interval.high) - Math.log(interval.low)) / (2 * Z95));
}

/**
 * Pools the rounds that scored something (a score above 0). Rounds without an interval count only when
 * none has one: their geometric mean, with no interval. Null when no round scored anything.
 */
export function poolRoundEstimates(estimates: readonly RoundEstimate[]): PooledEstimate | null {
  const scored = estimates.filter((estimate) => Number.isFinite(estimate.score) && estimate.score > 0);
  if (scored.length === 0) return null;
  const withInterval = scored.filter(
    (estimate): estimate is RoundEstimate & { interval: { low: number; high: number } } =>
      estimate.interval !== null && estimate.interval.low > 0 && estimate.interval.high >= estimate.interval.low,
  );
  if (withInterval.length === 0) {
    const meanLog = scored.reduce((sum, estimate) => sum + Math.log(estimate.score), 0) / scored.length;
    return { score: Math.exp(meanLog), interval: null, rounds: scored.length };
  }
  if (withInterval.length === 1) {
    const only = withInterval[0];
    if (only) return { score: only.score, interval: { ...only.interval }, rounds: 1 };
  }
  let weights = 0;
  let weighted = 0;
  for (const estimate of withInterval) {
    const weight = 1 / logStandardError(estimate.interval) ** 2;
    weights += weight;
    weighted += weight * Math.log(estimate.score);
  }
  const mean = weighted / weights;
  const se = 1 / Math.sqrt(weights);
  return {
    score: Math.exp(mean),
    interval: { low: Math.exp(mean - Z95 * se), high: Math.exp(mean + Z95 * se) },
    rounds: withInterval.length,
  };
}
