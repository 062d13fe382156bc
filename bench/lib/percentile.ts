/** Nearest-rank percentile (p in [0, 100]) of an already sorted list; NaN when empty. */
export function percentileOfSorted(sorted: Float64Array | readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
