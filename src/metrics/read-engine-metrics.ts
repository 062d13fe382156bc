import type { EngineFamily } from "../vocabulary/engine-family.js";
import type { ReportedEngineTimes } from "../vocabulary/engine-reported-times.js";

/** Each sample's value summed over its labels (one model, any number of workers), by metric name. */
export type MetricTotals = ReadonlyMap<string, number>;

/**
 * The Prometheus text exposition format, reduced to totals: "name{labels} value" lines, comments
 * skipped, values of the same name added up across label sets. Only the names speedgate reads matter.
 */
export function parsePrometheusText(text: string): MetricTotals {
  const totals = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([A-Za-z_:][\w:]*)(?:\{[^}]*\})?\s+(\S+)/.exec(line.trim());
    if (!match?.[1] || match[2] === undefined) continue;
    const value = Number(match[2]);
    if (!Number.isFinite(value)) continue;
    totals.set(match[1], (totals.get(match[1]) ?? 0) + value);
  }
  return totals;
}

/** What a histogram gained between two scrapes: the sum of its observations and their count. */
function gained(before: MetricTotals, after: MetricTotals, histogram: string): { sum: number; count: number } | null {
  const sum = (after.get(`${histogram}_sum`) ?? NaN) - (before.get(`${histogram}_sum`) ?? 0);
  const count = (after.get(`${histogram}_count`) ?? NaN) - (before.get(`${histogram}_count`) ?? 0);
  return Number.isFinite(sum) && Number.isFinite(count) && count > 0 && sum >= 0 ? { sum, count } : null;
}

function firstGained(before: MetricTotals, after: MetricTotals, names: readonly string[]): { sum: number; count: number } | null {
  for (const name of names) {
    const found = gained(before, after, name);
    if (found) return found;
  }
  return null;
}

const ms = (seconds: number): number => Math.round(seconds * 1e6) / 1e3;

/** vLLM: prefill and decode phases per request; decode per token over the tokens after each first one. */
function vllmTimes(before: MetricTotals, after: MetricTotals): ReportedEngineTimes | null {
  const prefill = gained(before, after, "vllm:request_prefill_time_seconds");
  const decode = gained(before, after, "vllm:request_decode_time_seconds");
  const generated = gained(before, after, "vllm:request_generation_tokens");
  const perToken = firstGained(before, after, ["vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds"]);
  if (!prefill && !decode) return null;
  const decodedAfterFirst = generated && decode ? generated.sum - decode.count : 0;
  const decodeMsPerToken =
    decode && decodedAfterFirst > 0 ? ms(decode.sum / decodedAfterFirst) : perToken ? ms(perToken.sum / perToken.count) : null;
  return {
    requests: (prefill ?? decode)?.count ?? 0,
    promptMs: prefill ? ms(prefill.sum / prefill.count) : null,
    decodeMsPerToken,
    statistic: "mean",
  };
}

/** SGLang: its time to first token less its queueing (both from the server's side), and its time between tokens. */
function sglangTimes(before: MetricTotals, after: MetricTotals): ReportedEngineTimes | null {
  const ttft = gained(before, after, "sglang:time_to_first_token_seconds");
  const queue = gained(before, after, "sglang:queue_time_seconds");
  const perToken = firstGained(before, after, ["sglang:inter_token_latency_seconds", "sglang:time_per_output_token_seconds"]);
  if (!ttft && !perToken) return null;
  const promptMs = ttft && queue ? ms(Math.max(0, ttft.sum / ttft.count - queue.sum / queue.count)) : null;
  return {
    requests: ttft?.count ?? perToken?.count ?? 0,
    promptMs,
    decodeMsPerToken: perToken ? ms(perToken.sum / perToken.count) : null,
    statistic: "mean",
  };
}

/**
 * The engine's own prompt and decode times over the requests between two scrapes of its /metrics
 * (SGLang with --enable-metrics, vLLM by default); null for other engines or when the names are absent.
 */
export function reportedTimesFromMetrics(
  family: EngineFamily | null,
  before: MetricTotals,
  after: MetricTotals,
): ReportedEngineTimes | null {
  if (family === "vllm") return vllmTimes(before, after);
  if (family === "sglang") return sglangTimes(before, after);
  return null;
}
