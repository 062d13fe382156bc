import { createSeededRandom } from "./seeded-random.js";

/*
 * E-divisive means (Matteson and James, "A Nonparametric Approach for Multiple Change Point Analysis
 * of Multivariate Data", JASA 109(505), 2014), as MongoDB's performance CI (Daniel et al., "Change
 * Point Detection in Software Performance Testing", ICPE 2020) and Apache Otava (formerly DataStax
 * Hunter; its docs/MATH.md) apply it to benchmark series: for a split of a segment into X (before)
 * and Y (after), the energy statistic with moment 1,
 *
 *   Ê = 2/(mn) Σ|x−y| − 1/C(m,2) Σ|x−x'| − 1/C(n,2) Σ|y−y'|,   Q̂ = mn/(m+n) · Ê,
 *
 * is largest where the two sides' distributions differ most. The best split of every segment is
 * found, the largest of them tested with a permutation test (the segment's values shuffled, the
 * largest Q̂ of each shuffle counted; p = (1 + #{≥ observed}) / (1 + permutations), as the R package
 * ecp's e.divisive does), and a significant one splits its segment and the search goes on in both
 * halves (hierarchical, as all three do). Each side must hold at least minSegment points. The series
 * here is short (main's drift rounds, one a day), so every split is scored exactly, in O(n²) per
 * segment, and the shuffles are seeded: the same series always gives the same answer.
 */

export interface ChangePointOptions {
  /** A split is accepted when its permutation p-value is at most this. */
  maxPValue: number;
  /** The fewest points on either side of a split. */
  minSegment: number;
  /** Shuffles per test. */
  permutations: number;
  /** The shuffles' seed (default: a fixed one). */
  seed?: number;
}

export interface ChangePoint {
  /** The first index of the later segment: the series changed between index − 1 and index. */
  index: number;
  pValue: number;
  /** Q̂ of the split. */
  statistic: number;
  /** The means of the segments on either side, within the segment the split was found in. */
  meanBefore: number;
  meanAfter: number;
}

interface Split {
  index: number;
  statistic: number;
}

/**
 * The best split of values[start, end) with both sides at least minSegment long, or null when the
 * segment is too short. Sums of distances are kept as the split moves one point right.
 */
function bestSplit(values: readonly number[], start: number, end: number, minSegment: number): Split | null {
  const n = end - start;
  if (n < 2 * minSegment) return null;
  const at = (i: number): number => values[start + i] ?? 0;
  // rowBefore[t] = Σ_{i<t} |v_i − v_t|; rowAfter[t] = Σ_{j>t} |v_t − v_j| (inside the segment).
  const rowBefore = new Array<number>(n).fill(0);
  const rowAfter = new Array<number>(n).fill(0);
  let total = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = Math.abs(at(i) - at(j));
      rowBefore[j] = (rowBefore[j] ?? 0) + d;
      rowAfter[i] = (rowAfter[i] ?? 0) + d;
      total += d;
    }
  }
  // With τ points before the split: within the left, within the right, and across.
  let left = 0;
  let cross = 0;
  let right = total;
  let best: Split | null = null;
  for (let tau = 1; tau < n; tau++) {
    // Move point τ − 1 from the right side to the left.
    const moved = tau - 1;
    left += rowBefore[moved] ?? 0;
    right -= rowAfter[moved] ?? 0;
    cross += (rowAfter[moved] ?? 0) - (rowBefore[moved] ?? 0);
    const m = tau;
    const k = n - tau;
    if (m < minSegment || k < minSegment) continue;
    const pairs = (count: number): number => (count * (count - 1)) / 2;
    const energy = (2 * cross) / (m * k) - (pairs(m) > 0 ? left / pairs(m) : 0) - (pairs(k) > 0 ? right / pairs(k) : 0);
    const statistic = ((m * k) / (m + k)) * energy;
    if (best === null || statistic > best.statistic) best = { index: start + tau, statistic };
  }
  return best;
}

function mean(values: readonly number[], start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += values[i] ?? 0;
  return end > start ? sum / (end - start) : Number.NaN;
}

/** The permutation p-value of a segment's best split: how often a shuffle of the segment splits as well or better. */
function permutationPValue(
  values: readonly number[],
  start: number,
  end: number,
  observed: number,
  options: ChangePointOptions,
  random: () => number,
): number {
  const segment = values.slice(start, end);
  let asLarge = 0;
  for (let round = 0; round < options.permutations; round++) {
    for (let i = segment.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const swap = segment[i] ?? 0;
      segment[i] = segment[j] ?? 0;
      segment[j] = swap;
    }
    const split = bestSplit(segment, 0, segment.length, options.minSegment);
    // A tie counts against the split (≥), with a relative tolerance for sums taken in another order.
    if (split && split.statistic >= observed * (1 - 1e-12)) asLarge++;
  }
  return (1 + asLarge) / (1 + options.permutations);
}

/**
 * The significant change points of a series, in the order of the series. An empty list when nothing
 * changed beyond what shuffling the same values gives, or when the series is shorter than two segments.
 */
export function detectChangePoints(values: readonly number[], options: ChangePointOptions): ChangePoint[] {
  if (!values.every((value) => Number.isFinite(value))) throw new Error("detectChangePoints: every value must be a finite number");
  if (!Number.isInteger(options.minSegment) || options.minSegment < 1) throw new Error("detectChangePoints: minSegment must be 1 or more");
  const random = createSeededRandom(options.seed ?? 0x5eed_c0de);
  const bounds = [0, values.length];
  const found: ChangePoint[] = [];
  for (;;) {
    let candidate: { split: Split; start: number; end: number } | null = null;
    for (let segment = 0; segment + 1 < bounds.length; segment++) {
      const start = bounds[segment] ?? 0;
      const end = bounds[segment + 1] ?? 0;
      const split = bestSplit(values, start, end, options.minSegment);
      if (split && (candidate === null || split.statistic > candidate.split.statistic)) candidate = { split, start, end };
    }
    if (!candidate || candidate.split.statistic <= 0) break;
    const { split, start, end } = candidate;
    const pValue = permutationPValue(values, start, end, split.statistic, options, random);
    if (pValue > options.maxPValue) break;
    found.push({
      index: split.index,
      pValue,
      statistic: split.statistic,
      meanBefore: mean(values, start, split.index),
      meanAfter: mean(values, split.index, end),
    });
    bounds.push(split.index);
    bounds.sort((a, b) => a - b);
  }
  return found.sort((a, b) => a.index - b.index);
}
