import { type EngineMetrics, LATENCY_METRICS, type LatencyMetric, type RoundMetrics } from "./metrics-schema.js";

const ratio = (candidate: number | null, baseline: number | null): number | null =>
  candidate === null || baseline === null || baseline <= 0 ? null : Math.round((candidate / baseline) * 10_000) / 10_000;

/** Candidate ÷ baseline for every figure both engines have. */
export function compareEngineMetrics(baseline: EngineMetrics, candidate: EngineMetrics): RoundMetrics["ratio"] {
  const latencies = Object.fromEntries(
    LATENCY_METRICS.map((metric) => [
      metric,
      {
        median: ratio(candidate[metric].median, baseline[metric].median),
        p90: ratio(candidate[metric].p90, baseline[metric].p90),
        p99: ratio(candidate[metric].p99, baseline[metric].p99),
      },
    ]),
  ) as Pick<RoundMetrics["ratio"], LatencyMetric>;
  return {
    ...latencies,
    outputTokensPerS: ratio(candidate.outputTokensPerS, baseline.outputTokensPerS),
    requestsPerS: ratio(candidate.requestsPerS, baseline.requestsPerS),
  };
}
