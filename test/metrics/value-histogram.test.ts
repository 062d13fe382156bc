import { describe, expect, it } from "vitest";
import {
  MAX_HISTOGRAM_BINS,
  buildHistogram,
  histogramCount,
  histogramPercentile,
  mergeHistograms,
} from "../../src/metrics/value-histogram.js";

describe("value histograms", () => {
  it("gives numpy.percentile's linear interpolation between closest ranks", () => {
    // numpy.percentile([1, 2, 3, 4], [50, 90, 99]) == [2.5, 3.7, 3.97]
    const histogram = buildHistogram([4, 1, 3, 2]);
    expect(histogramPercentile(histogram, 50)).toBeCloseTo(2.5, 9);
    expect(histogramPercentile(histogram, 90)).toBeCloseTo(3.7, 9);
    expect(histogramPercentile(histogram, 99)).toBeCloseTo(3.97, 9);
    expect(histogramPercentile(histogram, 0)).toBeCloseTo(1, 9);
    expect(histogramPercentile(histogram, 100)).toBeCloseTo(4, 9);
  });

  it("interpolates across repeated values as the expanded sorted list would", () => {
    // numpy.percentile([5, 5, 5, 9], 90) == 7.8; [5, 5, 5, 9] median == 5
    const histogram = buildHistogram([5, 9, 5, 5]);
    expect(histogramPercentile(histogram, 90)).toBeCloseTo(7.8, 9);
    expect(histogramPercentile(histogram, 50)).toBeCloseTo(5, 9);
    expect(histogramCount(histogram)).toBe(4);
  });

  it("rounds to 10 µs and has no percentile when empty", () => {
    expect(histogramPercentile(buildHistogram([12.344_9]), 50)).toBeCloseTo(12.34, 9);
    expect(histogramPercentile(buildHistogram([]), 50)).toBeNull();
  });

  it("merges into exactly the histogram of all the values, in any order", () => {
    const values = Array.from({ length: 3_000 }, (_, index) => 10 + ((index * 7919) % 1_000) / 37);
    const parts = [values.slice(0, 1_000), values.slice(1_000, 1_700), values.slice(1_700)].map(buildHistogram);
    expect(mergeHistograms(parts)).toEqual(buildHistogram(values));
    expect(mergeHistograms(parts.slice().reverse())).toEqual(buildHistogram(values));
  });

  it("coarsens tenfold past the bin limit, and a merge of fine shards lands on the same coarse bins", () => {
    const values = Array.from({ length: 2 * MAX_HISTOGRAM_BINS + 10 }, (_, index) => index * 0.01);
    const whole = buildHistogram(values);
    expect(whole.resolutionMs).toBeCloseTo(0.1, 12);
    expect(whole.bins.length).toBeLessThanOrEqual(MAX_HISTOGRAM_BINS);
    const halves = [buildHistogram(values.slice(0, MAX_HISTOGRAM_BINS)), buildHistogram(values.slice(MAX_HISTOGRAM_BINS))];
    expect(halves[0]?.resolutionMs).toBe(0.01);
    expect(mergeHistograms(halves)).toEqual(whole);
    expect(histogramCount(whole)).toBe(values.length);
  });
});
