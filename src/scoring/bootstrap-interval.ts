import { createSeededRandom } from "./seeded-random.js";

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
