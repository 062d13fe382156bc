import { compareEngineMetrics } from "./compare-engine-metrics.js";
import { type EngineMetrics, LATENCY_METRICS, type LatencyMetric, type RoundMetrics } from "./metrics-schema.js";
import { summarizeEngineMetrics } from "./summarize-engine-metrics.js";
import { type ValueHistogram, mergeHistograms } from "./value-histogram.js";

function mergeEngine(parts: readonly EngineMetrics[]): EngineMetrics {
  const distributions = Object.fromEntries(
    LATENCY_METRICS.map((metric) => [metric, mergeHistograms(parts.map((part) => part.distributions[metric]))]),
  ) as Record<LatencyMetric, ValueHistogram>;
  return summarizeEngineMetrics({
    requests: parts.reduce((sum, part) => sum + part.requests, 0),
    outputTokens: parts.reduce((sum, part) => sum + part.outputTokens, 0),
    // Shards run side by side on separate runners: summed spans give one engine's rate, as a single runner would see it.
    durationMs: parts.reduce((sum, part) => sum + part.durationMs, 0),
    distributions,
  });
}

/**
 * The metrics of a sharded round from its shards' metrics: distributions are pooled (so percentiles
 * are the whole round's, not an average of shards'), counts and spans added up. Shards without
 * metrics (nothing scored, or a card from before schema 2) contribute nothing.
 */
export function mergeRoundMetrics(parts: ReadonlyArray<RoundMetrics | null>): RoundMetrics | null {
  const present = parts.filter((part): part is RoundMetrics => part !== null);
  if (present.length === 0) return null;
  const baseline = mergeEngine(present.map((part) => part.baseline));
  const candidate = mergeEngine(present.map((part) => part.candidate));
  return {
    basis: "equal_length",
    prompts: present.reduce((sum, part) => sum + part.prompts, 0),
    baseline,
    candidate,
    ratio: compareEngineMetrics(baseline, candidate),
  };
}
