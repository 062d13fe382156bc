import { z } from "zod";

/*
 * The serving metrics on scorecard.json. Like the rest of the card they may come from an artifact a
 * pull request's code could have written: every list is bounded and every number finite.
 */

const count = z.number().int().min(0).max(10_000_000_000);
const timeOrNull = z.number().finite().min(0).nullable();
const ratioOrNull = z.number().finite().min(0).nullable();

const histogramSchema = z.object({
  resolutionMs: z.number().finite().gt(0).max(1e9),
  bins: z.array(z.tuple([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), count])).max(4_000),
});

const percentilesSchema = z.object({ median: timeOrNull, p90: timeOrNull, p99: timeOrNull });
const ratioPercentilesSchema = z.object({ median: ratioOrNull, p90: ratioOrNull, p99: ratioOrNull });

export const engineMetricsSchema = z.object({
  requests: count,
  outputTokens: count,
  /** From the first request sent to the last compared token received, summed over benchmark runs. */
  durationMs: z.number().finite().min(0),
  outputTokensPerS: timeOrNull,
  requestsPerS: timeOrNull,
  ttftMs: percentilesSchema,
  tpotMs: percentilesSchema,
  itlMs: percentilesSchema,
  e2eMs: percentilesSchema,
  distributions: z.object({ ttftMs: histogramSchema, tpotMs: histogramSchema, itlMs: histogramSchema, e2eMs: histogramSchema }),
});

export const roundMetricsSchema = z.object({
  /** Every request is cut at the output length both engines are compared at (k), as the round score is. */
  basis: z.literal("equal_length"),
  /** How many scored prompts the metrics cover. */
  prompts: count,
  baseline: engineMetricsSchema,
  candidate: engineMetricsSchema,
  /** Candidate ÷ baseline for each figure: below 1 is faster for times, above 1 is faster for rates. */
  ratio: z.object({
    ttftMs: ratioPercentilesSchema,
    tpotMs: ratioPercentilesSchema,
    itlMs: ratioPercentilesSchema,
    e2eMs: ratioPercentilesSchema,
    outputTokensPerS: ratioOrNull,
    requestsPerS: ratioOrNull,
  }),
});

export type EngineMetrics = z.infer<typeof engineMetricsSchema>;
export type RoundMetrics = z.infer<typeof roundMetricsSchema>;
export type Percentiles = z.infer<typeof percentilesSchema>;
export type LatencyMetric = "ttftMs" | "tpotMs" | "itlMs" | "e2eMs";
export const LATENCY_METRICS: readonly LatencyMetric[] = ["ttftMs", "tpotMs", "itlMs", "e2eMs"];
