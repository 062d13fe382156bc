/*
 * The binomial distribution's upper tail, and the exact (Clopper–Pearson) upper confidence bound on a
 * rate seen k times in n trials that it gives, for the unexplained rule's bound on what an engine's own
 * variation can give (judge-unexplained.ts). Computed on the log scale term by term, so that rounds of
 * many thousands of answers neither overflow nor lose the tail to rounding.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms): about 15 significant digits. */
function logGamma(x: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let sum = coefficients[0] as number;
  for (let i = 1; i < coefficients.length; i++) sum += (coefficients[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** ln P(X = j) for X ~ Binomial(n, p), 0 < p < 1. */
function logTerm(n: number, p: number, j: number): number {
  return logGamma(n + 1) - logGamma(j + 1) - logGamma(n - j + 1) + j * Math.log(p) + (n - j) * Math.log1p(-p);
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomialTail(n: number, p: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const mode = Math.floor((n + 1) * p);
  // Sum the smaller side, starting where its terms are largest, and stop once they no longer count.
  const sumFrom = (from: number, to: number, step: 1 | -1): number => {
    let total = 0;
    for (let j = from; step > 0 ? j <= to : j >= to; j += step) {
      const term = Math.exp(logTerm(n, p, j));
      total += term;
      if (term < total * 1e-17 && (step > 0 ? j > mode : j < mode)) break;
    }
    return total;
  };
  if (k > mode) return Math.min(1, sumFrom(k, n, 1));
  return Math.max(0, 1 - sumFrom(k - 1, 0, -1));
}

/**
 * The exact one-sided upper confidence bound on a rate seen `k` times in `n` trials: the rate p at which
 * seeing k or fewer has probability `alpha` (Clopper–Pearson). With none seen it is 1 − alpha^(1/n); with
 * no trials, 1.
 */
export function binomialUpperBound(k: number, n: number, alpha: number): number {
  if (n <= 0) return 1;
  if (k >= n) return 1;
  // P(X ≤ k) = 1 − P(X ≥ k + 1) falls as p rises: bisect for the p where it equals alpha.
  let low = k / n;
  let high = 1;
  for (let step = 0; step < 100 && high - low > 1e-12; step++) {
    const middle = (low + high) / 2;
    if (1 - binomialTail(n, middle, k + 1) > alpha) low = middle;
    else high = middle;
  }
  return high;
}
