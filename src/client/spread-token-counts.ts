/**
 * Rescales cumulative per-chunk counts (one a delta) so the last equals the server's total, keeping
 * them whole and non-decreasing: each chunk keeps its share of the stream, only the unit changes.
 * Mutates `counts` in place (the client's hot path avoids a second array).
 */
export function spreadTokenCounts(counts: number[], total: number): void {
  const n = counts.length;
  if (n === 0) return;
  const last = counts[n - 1] ?? 0;
  if (last === total) return;
  let previous = 0;
  for (let index = 0; index < n; index++) {
    const raw = counts[index] ?? 0;
    const scaled = last > 0 ? Math.round((raw * total) / last) : total;
    const value = Math.min(total, Math.max(previous, scaled));
    counts[index] = value;
    previous = value;
  }
  counts[n - 1] = total;
}
