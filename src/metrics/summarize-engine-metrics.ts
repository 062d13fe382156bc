import { type EngineMetrics, LATENCY_METRICS, type LatencyMetric, type Percentiles } from "./metrics-schema.js";
import { type ValueHistogram, histogramPercentile } from "./value-histogram.js";

export interface EngineTotals {
  requests: number;
  outputTokens: number;
  durationMs: number;
  distributions: Record<LatencyMetric, ValueHistogram>;
}

const round3 = (value: number | null): number | null => (value === null ? null : Math.round(value * 1000) / 1000);

function percentiles(histogram: ValueHistogram): Percentiles {
  return {
    median: round3(histogramPercentile(histogram, 50)),
    p90: round3(histogramPercentile(histogram, 90)),
    p99: round3(histogramPercentile(histogram, 99)),
  };
}

/**
 * One engine's figures from its totals and distributions. A fresh round and a merge of shard cards
 * both end here, so the percentiles on a merged card are those of the pooled samples.
 */
export function summarizeEngineMetrics(totals: EngineTotals): EngineMetrics {
  const seconds = totals.durationMs / 1000;
  const perSecond = (amount: number): number | null => (seconds > 0 ? round3(amount / seconds) : null);
  const latencies = Object.fromEntries(LATENCY_METRICS.map((metric) => [metric, percentiles(totals.distributions[metric])])) as Record<
    LatencyMetric,
    Percentiles
  >;
  return {
    requests: totals.requests,
    outputTokens: totals.outputTokens,
    durationMs: round3(totals.durationMs) ?? 0,
    outputTokensPerS: perSecond(totals.outputTokens),
    requestsPerS: perSecond(totals.requests),
    ...latencies,
    distributions: totals.distributions,
  };
}
