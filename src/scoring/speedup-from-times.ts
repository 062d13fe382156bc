/*
 * The one floor under a candidate's time. A zero duration cannot happen on a real clock; the floor
 * keeps a broken record from dividing by zero. The card's numbers depend on this value: its times are
 * kept to the microsecond (0.001 ms), a candidate's is floored to it when written, and
 * docs/scoring-statistics.md gives `baselineMs / max(candidateMs, 0.001)` for re-deriving every run's
 * score and the interval from the card, as a merge and the app's re-gate do. Changing it changes what
 * a re-gate of an earlier card gives.
 */
export const MIN_CANDIDATE_MS = 0.001;

/** T_b / T_c, the candidate's time floored so a broken record cannot divide by zero. */
export function speedupFromTimes(baselineMs: number, candidateMs: number): number {
  return baselineMs / Math.max(candidateMs, MIN_CANDIDATE_MS);
}
