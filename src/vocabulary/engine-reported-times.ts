import { z } from "zod";

const count = z.number().int().min(0).max(10_000_000_000);
const timeOrNull = z.number().finite().min(0).nullable();

/** One engine's own account of its time (not the client's clock): how long it took to process a prompt and to decode each token. */
export const reportedEngineTimesSchema = z.object({
  /** Requests the figures cover. */
  requests: count,
  /** Prompt processing per request, in ms, queueing excluded. */
  promptMs: timeOrNull,
  /** Decoding per generated token, in ms. */
  decodeMsPerToken: timeOrNull,
  /** "median" over per-request figures (llama.cpp's timings), "mean" from a metrics endpoint's sums and counts. */
  statistic: z.enum(["median", "mean"]),
});

/**
 * What the engines report about their own time, beside the client's TTFT (which includes queueing):
 * llama.cpp's per-request `timings`, or SGLang's and vLLM's Prometheus histograms read before and after
 * the measured requests. Absent on older cards and for engines that report neither.
 */
export const engineReportedTimesSchema = z.object({
  source: z.enum(["llama.cpp timings", "sglang metrics", "vllm metrics"]),
  baseline: reportedEngineTimesSchema.nullable(),
  candidate: reportedEngineTimesSchema.nullable(),
});

export type ReportedEngineTimes = z.infer<typeof reportedEngineTimesSchema>;
export type EngineReportedTimes = z.infer<typeof engineReportedTimesSchema>;
