/**
 * The exact (conditional) McNemar test: of the n = b + c discordant pairs (questions one engine got right
 * and the other wrong), were the two engines the same, each would fall either way with probability ½, so
 * the two-sided p-value is twice the binomial tail of the smaller count, at most 1. Exact rather than the
 * chi-squared approximation because a kernel change usually moves a handful of questions: with b + c under
 * about 25 the approximation is off, and the exact test never exceeds its level. Computed in log space, so
 * any number of pairs stays finite.
 */
export function mcnemarExactP(b: number, c: number): number {
  return Math.min(1, 2 * binomialHalfTail(b + c, Math.min(b, c)));
}

/**
 * The one-sided exact McNemar test for a drop: the chance that an engine no worse than the baseline
 * loses at least `lost` of the `lost + gained` questions the two answered differently. One-sided because
 * the gate fails only a drop: a two-sided test at the same level would spend half of its false alarms on
 * improvements that never fail, and catch fewer drops (at 200 questions, a 5-point drop with 5% of the
 * questions at a near-tie: 79% of rounds two-sided, 91% one-sided; bench/quality-statistics.ts).
 */
export function mcnemarDropP(lost: number, gained: number): number {
  return binomialHalfTail(lost + gained, gained);
}

/** P(X ≤ k) for X ~ Binomial(n, ½). */
function binomialHalfTail(n: number, smaller: number): number {
  if (n === 0) return 1;
  // log C(n, k) - n log 2, built up term by term.
  const terms: number[] = [];
  let logChoose = 0;
  for (let k = 0; k <= smaller; k++) {
    if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
    terms.push(logChoose - n * Math.LN2);
  }
  const most = Math.max(...terms);
  return Math.min(1, Math.exp(most) * terms.reduce((sum, term) => sum + Math.exp(term - most), 0));
}
