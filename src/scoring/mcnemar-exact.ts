/**
 * The exact (conditional) McNemar test: of the n = b + c discordant pairs (questions one engine got right
 * and the other wrong), were the two engines the same, each would fall either way with probability ½, so
 * the two-sided p-value is twice the binomial tail of the smaller count, at most 1. Exact rather than the
 * chi-squared approximation because a kernel change usually moves a handful of questions: with b + c under
 * about 25 the approximation is off, and the exact test never exceeds its level. Computed in log space, so
 * any number of pairs stays finite.
 */
export function mcnemarExactP(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const smaller = Math.min(b, c);
  // log C(n, k) - n log 2, built up term by term.
  const terms: number[] = [];
  let logChoose = 0;
  for (let k = 0; k <= smaller; k++) {
    if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
    terms.push(logChoose - n * Math.LN2);
  }
  const most = Math.max(...terms);
  const tail = Math.exp(most) * terms.reduce((sum, term) => sum + Math.exp(term - most), 0);
  return Math.min(1, 2 * tail);
}
