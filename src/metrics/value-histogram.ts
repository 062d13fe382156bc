/**
 * A distribution of times kept as counts of values rounded to a resolution, so that the card can carry
 * every sample of a round in bounded space and two shards' distributions add up to exactly the one an
 * unsharded round would have. Values are integer steps of `resolutionMs`; past MAX_HISTOGRAM_BINS
 * distinct values the resolution is coarsened tenfold until they fit.
 */
export interface ValueHistogram {
  resolutionMs: number;
  /** [step, count] pairs in increasing step order; the value of a step is step × resolutionMs. */
  bins: Array<[number, number]>;
}

export const BASE_RESOLUTION_MS = 0.01;
export const MAX_HISTOGRAM_BINS = 4_000;

function toHistogram(resolutionMs: number, counts: ReadonlyMap<number, number>): ValueHistogram {
  const bins = [...counts].sort((a, b) => a[0] - b[0]);
  return { resolutionMs, bins };
}

/** The coarser resolution in the 0.01, 0.1, 1, 10 … ladder, without floating-point drift. */
function nextResolution(resolutionMs: number): number {
  return Number((resolutionMs * 10).toPrecision(12));
}

function rebin(histogram: ValueHistogram, resolutionMs: number): ValueHistogram {
  if (resolutionMs === histogram.resolutionMs) return histogram;
  // Each step of the ladder rounds once, so a value ends in the same bin however many shards it passed through.
  let current = histogram;
  while (current.resolutionMs < resolutionMs) {
    const coarser = nextResolution(current.resolutionMs);
    const counts = new Map<number, number>();
    for (const [step, count] of current.bins) {
      const coarse = Math.round(step / 10);
      counts.set(coarse, (counts.get(coarse) ?? 0) + count);
    }
    current = toHistogram(coarser, counts);
  }
  return current;
}

function fit(histogram: ValueHistogram): ValueHistogram {
  let current = histogram;
  while (current.bins.length > MAX_HISTOGRAM_BINS) current = rebin(current, nextResolution(current.resolutionMs));
  return current;
}

/** Counts values one at a time, so millions of inter-token gaps never sit in one array. */
export class HistogramBuilder {
  private readonly counts = new Map<number, number>();

  add(value: number): void {
    const step = Math.round(value / BASE_RESOLUTION_MS);
    this.counts.set(step, (this.counts.get(step) ?? 0) + 1);
  }

  build(): ValueHistogram {
    return fit(toHistogram(BASE_RESOLUTION_MS, this.counts));
  }
}

export function buildHistogram(values: readonly number[]): ValueHistogram {
  const builder = new HistogramBuilder();
  for (const value of values) builder.add(value);
  return builder.build();
}

export function mergeHistograms(histograms: readonly ValueHistogram[]): ValueHistogram {
  const resolutionMs = Math.max(BASE_RESOLUTION_MS, ...histograms.map((histogram) => histogram.resolutionMs));
  const counts = new Map<number, number>();
  for (const histogram of histograms) {
    for (const [step, count] of rebin(histogram, resolutionMs).bins) counts.set(step, (counts.get(step) ?? 0) + count);
  }
  return fit(toHistogram(resolutionMs, counts));
}

export function histogramCount(histogram: ValueHistogram): number {
  return histogram.bins.reduce((sum, [, count]) => sum + count, 0);
}

/**
 * The q-th percentile (0–100) with linear interpolation between closest ranks: numpy.percentile's
 * default, which vLLM's and SGLang's benchmark clients report. Null for an empty distribution.
 */
export function histogramPercentile(histogram: ValueHistogram, q: number): number | null {
  const total = histogramCount(histogram);
  if (total === 0) return null;
  const rank = ((total - 1) * q) / 100;
  const lowIndex = Math.floor(rank);
  const fraction = rank - lowIndex;
  let low: number | null = null;
  let high: number | null = null;
  let seen = 0;
  for (const [step, count] of histogram.bins) {
    seen += count;
    if (low === null && seen > lowIndex) low = step;
    if (seen > lowIndex + 1 || (fraction === 0 && low !== null)) {
      high = step;
      break;
    }
  }
  const lowValue = (low ?? 0) * histogram.resolutionMs;
  const highValue = (high ?? low ?? 0) * histogram.resolutionMs;
  return lowValue + fraction * (highValue - lowValue);
}
