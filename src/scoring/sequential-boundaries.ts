import { createSeededRandom } from "./seeded-random.js";
import { type SequentialOrder, type RunBudget, lookRuns, spendAlpha, spendBeta } from "./sequential-design.js";
import { studentTQuantile } from "./student-t-quantile.js";

/**
 * Where the round's run-to-run spread comes from, which decides the statistic's distribution:
 * - `starts`: from the round's own engine starts, each engine's levels about their mean, pooled
 *   (2(R − 1) degrees of freedom after R runs);
 * - `calibrated`: from a calibration's A/A rounds, with `degrees` degrees of freedom, the same at every look.
 */
export type SpreadSource = { kind: "starts" } | { kind: "calibrated"; degrees: number };

export interface SequentialBoundaries {
  /** Runs after which the rule looks. */
  looks: number[];
  /** Per look, the error it spends (Lan–DeMets). */
  alphaSpent: number[];
  /** Per look, the statistic (Student's t scale) at or above which the candidate passes. */
  efficacy: number[];
  /** Per look, the quantile of the futility bound: the upper bound is the estimate plus this many standard errors. */
  futility: number[];
  /** Per look, the degrees of freedom of the spread. */
  degrees: number[];
}

/** Paths of the statistic simulated under "no speedup" to place the bounds after the first look; seeded. */
export const BOUNDARY_PATHS = 131_072;
export const BOUNDARY_SEED = 20_250_243;

const cache = new Map<string, SequentialBoundaries>();
const quantiles = new Map<string, number>();

/** studentTQuantile, remembered: the same few (p, degrees) pairs come back for every round of a study. */
export function tQuantile(p: number, degrees: number): number {
  const key = `${p}|${degrees}`;
  let value = quantiles.get(key);
  if (value === undefined) {
    value = studentTQuantile(p, degrees);
    quantiles.set(key, value);
  }
  return value;
}

/** Standard normal draws (Box–Muller, both of each pair used) from a seeded uniform source. */
function normalSource(random: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    const radius = Math.sqrt(-2 * Math.log(Math.max(random(), Number.MIN_VALUE)));
    const angle = 2 * Math.PI * random();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
}

/** A Gamma(shape, 1) draw (Marsaglia and Tsang; below shape 1 by the usual boost). */
function gammaDraw(shape: number, random: () => number, normal: () => number): number {
  if (shape < 1) return gammaDraw(shape + 1, random, normal) * Math.pow(random(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/**
 * The statistic at every look of BOUNDARY_PATHS rounds with no speedup, as `values[look][path]`. Its
 * distribution does not depend on how noisy the runner is (the spread divides out), which is what
 * makes the bounds exact for an estimated spread rather than only for a known one.
 */
function simulateNullPaths(looks: readonly number[], spread: SpreadSource): Float64Array[] {
  const random = createSeededRandom(BOUNDARY_SEED);
  const normal = normalSource(random);
  const last = looks.at(-1) as number;
  const values = looks.map(() => new Float64Array(BOUNDARY_PATHS));
  for (let path = 0; path < BOUNDARY_PATHS; path++) {
    let look = 0;
    if (spread.kind === "starts") {
      let sumB = 0;
      let sumB2 = 0;
      let sumC = 0;
      let sumC2 = 0;
      for (let runs = 1; runs <= last; runs++) {
        const b = normal();
        const c = normal();
        sumB += b;
        sumB2 += b * b;
        sumC += c;
        sumC2 += c * c;
        if (runs !== looks[look]) continue;
        const variance = (sumB2 - (sumB * sumB) / runs + (sumC2 - (sumC * sumC) / runs)) / (runs - 1);
        (values[look] as Float64Array)[path] = (sumB - sumC) / runs / Math.sqrt(variance / runs);
        look++;
      }
    } else {
      const scale = Math.sqrt((2 * gammaDraw(spread.degrees / 2, random, normal)) / spread.degrees);
      let sum = 0;
      for (let runs = 1; runs <= last; runs++) {
        sum += normal();
        if (runs !== looks[look]) continue;
        (values[look] as Float64Array)[path] = sum / Math.sqrt(runs) / scale;
        look++;
      }
    }
  }
  return values;
}

/**
 * The bounds of the sequential rule for a budget: a one-sided group-sequential t-test with
 * Lan–DeMets error spending (spendAlpha) and a non-binding futility bound (spendBeta). The first
 * look's bound is Student's t quantile at the error it spends, exactly; each later look's is placed
 * so that, of the rounds with no speedup that crossed no earlier bound, the share its look spends
 * crosses it, over BOUNDARY_PATHS seeded paths of the statistic. Under "no speedup" that statistic's
 * joint distribution over the looks is free of the runner's noise, so the bounds hold with a spread
 * estimated from the round itself. Deterministic: a merge and the app's re-gate place the same bounds.
 */
export function sequentialBoundaries(budget: RunBudget, order: SequentialOrder, spread: SpreadSource): SequentialBoundaries {
  const looks = lookRuns(budget, order);
  const key = `${looks.join(",")}|${spread.kind}|${spread.kind === "calibrated" ? spread.degrees : ""}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const degrees = looks.map((runs) => (spread.kind === "starts" ? 2 * (runs - 1) : spread.degrees));
  const alphaSpent = spendAlpha(looks);
  const betaSpent = spendBeta(looks);
  const efficacy = [tQuantile(1 - (alphaSpent[0] as number), degrees[0] as number)];
  if (looks.length > 1) {
    const paths = simulateNullPaths(looks, spread);
    const alive = new Uint8Array(BOUNDARY_PATHS).fill(1);
    looks.forEach((_, look) => {
      const values = paths[look] as Float64Array;
      if (look > 0) {
        const survivors = new Float64Array(BOUNDARY_PATHS);
        let count = 0;
        for (let path = 0; path < BOUNDARY_PATHS; path++) if (alive[path]) survivors[count++] = values[path] as number;
        const sorted = survivors.subarray(0, count).sort();
        const crossing = Math.max(1, Math.round((alphaSpent[look] as number) * BOUNDARY_PATHS));
        // Midway between the crossing-th largest survivor and the next: exactly that many cross.
        const above = sorted[count - crossing] ?? Number.POSITIVE_INFINITY;
        const below = sorted[count - crossing - 1] ?? above;
        efficacy.push((above + below) / 2);
      }
      const bound = efficacy[look] as number;
      for (let path = 0; path < BOUNDARY_PATHS; path++) if ((values[path] as number) >= bound) alive[path] = 0;
    });
  }
  const futility = looks.map((_, look) => tQuantile(1 - (betaSpent[look] as number), degrees[look] as number));
  const result = { looks, alphaSpent, efficacy, futility, degrees };
  cache.set(key, result);
  return result;
}
