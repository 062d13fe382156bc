import { performance } from "node:perf_hooks";

/**
 * Milliseconds on CLOCK_MONOTONIC, the clock process.hrtime reads, which every process on the
 * machine shares. performance.now() runs on the same clock but from a per-process origin, so two
 * processes' performance.now() values cannot be compared; this offset maps them onto the shared
 * clock without paying for a BigInt on every reading.
 */
export function measureMonotonicOffsetMs(): number {
  let best = Number.POSITIVE_INFINITY;
  let offset = 0;
  for (let attempt = 0; attempt < 50; attempt++) {
    const before = performance.now();
    const shared = Number(process.hrtime.bigint()) / 1e6;
    const after = performance.now();
    if (after - before < best) {
      best = after - before;
      offset = shared - (before + after) / 2;
    }
  }
  return offset;
}

let cachedOffset: number | null = null;

/** Add to a performance.now() reading to get milliseconds on the machine-wide monotonic clock. */
export function monotonicOffsetMs(): number {
  cachedOffset ??= measureMonotonicOffsetMs();
  return cachedOffset;
}
