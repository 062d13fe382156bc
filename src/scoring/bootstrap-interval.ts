import { createSeededRandom } from "./seeded-random.js";
import { studentTQuantile } from "./student-t-quantile.js";

const Z_975 = 1.959963984540054;
const MAX_CACHED_DRAWS = 512;

export interface ScoreInterval {
  low: number;
  high: number;
  confidence: number;
}

export interface BootstrapOptions {
  resamples?: number;
  confidence?: number;
  seed?: number;
}

export const DEFAULT_BOOTSTRAP_SEED = 20_240_917;

/** Value at a 0-based fractional position of a resample given as counts per sorted index. */
function orderStatistic(counts: Uint32Array, sorted: Float64Array, position: number): number {
  let seen = 0;
  for (let index = 0; index < counts.length; index++) {
    seen += counts[index] as number;
    if (seen > position) return sorted[index] as number;
  }
  return sorted[sorted.length - 1] as number;
}

/**
 * Percentile bootstrap interval for the median over prompts. Resampling indices into the sorted
 * scores and counting them makes each resample's median O(n) instead of a sort, so 5,000 prompts stay fast.
 */
export function bootstrapMedianInterval(scores: readonly number[], options: BootstrapOptions = {}): ScoreInterval | null {
  const resamples = options.resamples ?? 2000;
  const confidence = options.confidence ?? 0.95;
  const n = scores.length;
  if (n === 0) return null;
  const sorted = Float64Array.from(scores).sort();
  const random = createSeededRandom(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const counts = new Uint32Array(n);
  const medians = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[Math.floor(random() * n)]! += 1;
    const upper = orderStatistic(counts, sorted, n >>> 1);
    medians[r] = n % 2 === 1 ? upper : (orderStatistic(counts, sorted, (n >>> 1) - 1) + upper) / 2;
  }
  medians.sort();
  const tail = (1 - confidence) / 2;
  const at = (q: number): number => medians[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))] as number;
  return { low: at(tail), high: at(1 - tail - 1 / resamples), confidence };
}

/**
 * Per run and prompt: the speedup when scored, 0 when unscored (the candidate gave no comparable
 * answer), NaN when the prompt does not count in that run (the baseline failed on it).
 */
export interface RunPromptScores {
  runs: number;
  prompts: number;
  /** Row-major: values[run * prompts + prompt]. */
  values: Float64Array;
}

/**
 * A prompt's score over the runs it is weighed with: 0 when any of them left it unscored, else the
 * geometric mean of its speedups (a ratio's natural average), NaN when it counts in none of them.
 * The round score and every bootstrap resample go through this, so they cannot disagree.
 */
export function combineRuns(matrix: RunPromptScores, prompt: number, weights: ArrayLike<number>, logShift?: ArrayLike<number>): number {
  let weight = 0;
  let logSum = 0;
  for (let run = 0; run < matrix.runs; run++) {
    const w = weights[run] as number;
    if (w === 0) continue;
    const value = matrix.values[run * matrix.prompts + prompt] as number;
    if (Number.isNaN(value)) continue;
    if (value === 0) return 0;
    weight += w;
    logSum += w * (Math.log(value) + (logShift ? (logShift[run] as number) : 0));
  }
  return weight === 0 ? Number.NaN : Math.exp(logSum / weight);
}

/** Median of the first `length` entries, reordering them (quickselect, O(n)). */
function selectMedian(values: Float64Array, length: number): number {
  const kth = (k: number): number => {
    let left = 0;
    let right = length - 1;
    while (left < right) {
      const pivot = values[(left + right) >>> 1] as number;
      let i = left;
      let j = right;
      while (i <= j) {
        while ((values[i] as number) < pivot) i++;
        while ((values[j] as number) > pivot) j--;
        if (i <= j) {
          const swap = values[i] as number;
          values[i] = values[j] as number;
          values[j] = swap;
          i++;
          j--;
        }
      }
      if (k <= j) right = j;
      else if (k >= i) left = i;
      else return values[k] as number;
    }
    return values[k] as number;
  };
  const upper = kth(length >>> 1);
  if (length % 2 === 1) return upper;
  // After selecting the upper middle, everything left of it is no larger: the lower middle is their maximum.
  let lower = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < length >>> 1; index++) lower = Math.max(lower, values[index] as number);
  return (lower + upper) / 2;
}

/**
 * The prompts reordered by their values, run by run, so that resampling them by index gives the
 * same interval whatever order they came in: a merge of shard cards lists prompts by id, a round
 * in the prompts file's order, and both must get the same interval.
 */
function inCanonicalOrder(matrix: RunPromptScores): RunPromptScores {
  const { runs, prompts, values } = matrix;
  const key = (value: number): number => (Number.isNaN(value) ? Number.POSITIVE_INFINITY : value);
  const order = Array.from({ length: prompts }, (_, prompt) => prompt).sort((a, b) => {
    for (let run = 0; run < runs; run++) {
      const difference = key(values[run * prompts + a] as number) - key(values[run * prompts + b] as number);
      if (difference !== 0 && !Number.isNaN(difference)) return difference;
    }
    return 0;
  });
  const reordered = new Float64Array(values.length);
  for (let run = 0; run < runs; run++) {
    order.forEach((prompt, position) => {
      reordered[run * prompts + position] = values[run * prompts + prompt] as number;
    });
  }
  return { runs, prompts, values: reordered };
}

/**
 * Each run's level on the log scale against the prompts' own averages, over the prompts scored in
 * every run: how much faster or slower that pair of engine starts ran as a whole.
 */
function runEffects(matrix: RunPromptScores): Float64Array | null {
  const { runs, prompts, values } = matrix;
  const effects = new Float64Array(runs);
  let used = 0;
  for (let prompt = 0; prompt < prompts; prompt++) {
    let sum = 0;
    let complete = true;
    for (let run = 0; run < runs; run++) {
      const value = values[run * prompts + prompt] as number;
      if (!(value > 0)) {
        complete = false;
        break;
      }
      sum += Math.log(value);
    }
    if (!complete) continue;
    const mean = sum / runs;
    for (let run = 0; run < runs; run++) effects[run]! += Math.log(values[run * prompts + prompt] as number) - mean;
    used++;
  }
  if (used === 0) return null;
  for (let run = 0; run < runs; run++) effects[run]! /= used;
  return effects;
}

/**
 * Percentile bootstrap interval for the median over prompts when each engine ran `runs` times:
 * every resample draws the runs with replacement, then the prompts with replacement, and recombines
 * each drawn prompt over the drawn runs. A runner whose engine starts differ in speed therefore
 * widens the interval, which resampling prompts inside one run cannot show.
 *
 * A few runs say little about how much engine starts differ, and resampling them says less: drawing
 * R runs from R shrinks their spread by (R − 1)/R in variance, and the spread itself is estimated
 * from R − 1 degrees of freedom. Each run's level is therefore pushed out around the mean by
 * √(R/(R − 1)) · t(R − 1)/z before drawing (the small-sample variance correction and Student's t in
 * place of the normal quantile): with 3 runs by a factor 2.7, with 10 by 1.2. Without it, an
 * unchanged engine passed an interval-low gate 5.5% of the time with 3 runs on a runner whose
 * engine starts differ by 2%; with it, 1.5% (bench/gate-statistics.ts). With one run this is the
 * prompt bootstrap.
 */
/**
 * How far each run's level is pushed out around the mean before the runs are drawn (see below):
 * √(R/(R − 1)) · t(R − 1)/z. 9.2 with 2 runs, 2.7 with 3, 1.2 with 10; 1 with a single run.
 */
export function runLevelFactor(runs: number, confidence = 0.95): number {
  if (runs < 2) return 1;
  const tail = (1 - confidence) / 2;
  return Math.sqrt(runs / (runs - 1)) * (studentTQuantile(1 - tail, runs - 1) / Z_975);
}

export function bootstrapRunsAndPrompts(given: RunPromptScores, options: BootstrapOptions = {}): ScoreInterval | null {
  const { runs, prompts } = given;
  if (runs === 1) {
    const scores: number[] = [];
    for (let prompt = 0; prompt < prompts; prompt++) {
      const value = given.values[prompt] as number;
      if (!Number.isNaN(value)) scores.push(value);
    }
    return bootstrapMedianInterval(scores, options);
  }
  const resamples = options.resamples ?? 2000;
  const confidence = options.confidence ?? 0.95;
  const random = createSeededRandom(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const matrix = inCanonicalOrder(given);
  const effects = runEffects(matrix);
  const tail = (1 - confidence) / 2;
  const inflate = runLevelFactor(runs, confidence) - 1;
  const shift = new Float64Array(runs);
  if (effects) for (let run = 0; run < runs; run++) shift[run] = inflate * (effects[run] as number);
  const weights = new Uint32Array(runs);
  const drawn = new Float64Array(prompts);
  const medians: number[] = [];
  // Few runs draw few distinct multisets (10 for 3 runs): each one's combined prompt scores are computed once.
  const cache = new Map<string, Float64Array>();
  const combinedFor = (): Float64Array => {
    const key = weights.join(",");
    const cached = cache.get(key);
    if (cached) return cached;
    const combined = new Float64Array(prompts);
    for (let prompt = 0; prompt < prompts; prompt++) combined[prompt] = combineRuns(matrix, prompt, weights, shift);
    if (cache.size < MAX_CACHED_DRAWS) cache.set(key, combined);
    return combined;
  };
  for (let r = 0; r < resamples; r++) {
    weights.fill(0);
    for (let i = 0; i < runs; i++) weights[Math.floor(random() * runs)]! += 1;
    const combined = combinedFor();
    let length = 0;
    for (let i = 0; i < prompts; i++) {
      const value = combined[Math.floor(random() * prompts)] as number;
      if (!Number.isNaN(value)) drawn[length++] = value;
    }
    if (length > 0) medians.push(selectMedian(drawn, length));
  }
  if (medians.length === 0) return null;
  const sorted = Float64Array.from(medians).sort();
  const count = sorted.length;
  const at = (q: number): number => sorted[Math.min(count - 1, Math.max(0, Math.floor(q * count)))] as number;
  return { low: at(tail), high: at(1 - tail - 1 / count), confidence };
}
