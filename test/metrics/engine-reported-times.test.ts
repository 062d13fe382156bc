import { describe, expect, it } from "vitest";
import { parsePrometheusText, reportedTimesFromMetrics } from "../../src/metrics/read-engine-metrics.js";
import { summarizeReportedTimes } from "../../src/metrics/summarize-reported-times.js";
import type { CompletedRequest } from "../../src/scoring/request-record.js";
import { renderEngineTimes } from "../../src/scorecard/render/render-engine-times.js";

const labels = '{model_name="qwen3-8b",engine="0"}';

/** vLLM's /metrics before and after 4 requests: 0.4 s of prefill, 2 s of decode, 104 tokens generated. */
function vllmPage(requests: number, prefillS: number, decodeS: number, tokens: number): string {
  return [
    "# HELP vllm:request_prefill_time_seconds Histogram of time spent in PREFILL phase for request.",
    "# TYPE vllm:request_prefill_time_seconds histogram",
    `vllm:request_prefill_time_seconds_bucket{le="0.3",model_name="qwen3-8b"} ${requests}`,
    `vllm:request_prefill_time_seconds_sum${labels} ${prefillS}`,
    `vllm:request_prefill_time_seconds_count${labels} ${requests}`,
    `vllm:request_decode_time_seconds_sum${labels} ${decodeS}`,
    `vllm:request_decode_time_seconds_count${labels} ${requests}`,
    `vllm:request_generation_tokens_sum${labels} ${tokens}`,
    `vllm:request_generation_tokens_count${labels} ${requests}`,
  ].join("\n");
}

describe("the engines' own times", () => {
  it("reads vLLM's prefill and decode histograms between two scrapes, decode per token after each first token", () => {
    const before = parsePrometheusText(vllmPage(2, 0.1, 1, 40));
    const after = parsePrometheusText(vllmPage(6, 0.5, 3, 144));
    // 4 requests: 0.4 s of prefill (100 ms each), 2 s of decode over 104 − 4 tokens (20 ms each).
    expect(reportedTimesFromMetrics("vllm", before, after)).toEqual({
      requests: 4,
      promptMs: 100,
      decodeMsPerToken: 20,
      statistic: "mean",
    });
  });

  it("reads SGLang's time to first token less its queueing, and its inter-token latency, summed over workers", () => {
    const page = (n: number, ttft: number, queue: number, itl: number, itlCount: number) =>
      [
        `sglang:time_to_first_token_seconds_sum{model_name="m",tp_rank="0"} ${ttft}`,
        `sglang:time_to_first_token_seconds_count{model_name="m",tp_rank="0"} ${n}`,
        `sglang:queue_time_seconds_sum{model_name="m"} ${queue}`,
        `sglang:queue_time_seconds_count{model_name="m"} ${n}`,
        `sglang:inter_token_latency_seconds_sum{model_name="m"} ${itl}`,
        `sglang:inter_token_latency_seconds_count{model_name="m"} ${itlCount}`,
      ].join("\n");
    const times = reportedTimesFromMetrics(
      "sglang",
      parsePrometheusText(page(0, 0, 0, 0, 0)),
      parsePrometheusText(page(10, 3, 1, 1.5, 100)),
    );
    expect(times).toEqual({ requests: 10, promptMs: 200, decodeMsPerToken: 15, statistic: "mean" });
  });

  it("says nothing for an engine without those names, or one it does not know", () => {
    const empty = parsePrometheusText("# nothing here\nprocess_cpu_seconds_total 12\n");
    expect(reportedTimesFromMetrics("vllm", empty, empty)).toBeNull();
    expect(reportedTimesFromMetrics(null, empty, empty)).toBeNull();
  });

  it("takes llama.cpp's per-request timings as medians: prompt per request, decode per generated token", () => {
    const record = (promptMs: number, decodeMs: number, decodeTokens: number): CompletedRequest => ({
      ok: true,
      chunks: [],
      outputTokens: decodeTokens,
      finishReason: "stop",
      endMs: 1,
      tokensEstimated: false,
      engineTimes: { promptMs, promptTokens: 10, decodeMs, decodeTokens },
    });
    expect(summarizeReportedTimes([record(9.5, 100, 50), record(16, 60, 20), null, record(12, 200, 50)])).toEqual({
      requests: 3,
      promptMs: 12,
      // 2, 3 and 4 ms a token.
      decodeMsPerToken: 3,
      statistic: "median",
    });
    expect(summarizeReportedTimes([null])).toBeNull();
  });

  it("renders them as one paragraph that says TTFT includes queueing", () => {
    const text = renderEngineTimes({
      engineTimes: {
        source: "llama.cpp timings",
        baseline: { requests: 8, promptMs: 9.5, decodeMsPerToken: 2.86, statistic: "median" },
        candidate: { requests: 8, promptMs: 16, decodeMsPerToken: 2.1, statistic: "median" },
      },
    });
    expect(text).toBe(
      "**The engines' own times** (llama.cpp's `timings` of each answer; medians over 8 and 8 requests, baseline → candidate): " +
        "prompt processing 9.5 → 16.0 ms per request, decoding 2.9 → 2.1 ms per token. They leave out the queueing and the network " +
        "that the client's TTFT includes.",
    );
    expect(renderEngineTimes({})).toBe("");
  });
});
