import type { EngineReportedTimes, ReportedEngineTimes } from "../../vocabulary/engine-reported-times.js";
import { formatMs } from "./describe-card.js";
import type { Scorecard } from "../scorecard-schema.js";

const SOURCES: Record<EngineReportedTimes["source"], string> = {
  "llama.cpp timings": "llama.cpp's `timings` of each answer",
  "sglang metrics": "SGLang's `/metrics` (time to first token less queueing, inter-token latency)",
  "vllm metrics": "vLLM's `/metrics` (prefill and decode time per request)",
};

function figure(side: ReportedEngineTimes | null, pick: (side: ReportedEngineTimes) => number | null): string {
  const value = side ? pick(side) : null;
  return value === null ? "—" : formatMs(value);
}

function pair(times: EngineReportedTimes, pick: (side: ReportedEngineTimes) => number | null): string {
  return `${figure(times.baseline, pick)} → ${figure(times.candidate, pick)} ms`;
}

/**
 * The engines' own account of their time beside the client's: TTFT is measured from the request's
 * send and includes queueing, so a candidate that queues less shows "less time to first token" while
 * its prompt processing may have got slower. One short paragraph, or "" when no engine reported.
 */
export function renderEngineTimes(card: Pick<Scorecard, "engineTimes">): string {
  const times = card.engineTimes;
  if (!times || (!times.baseline && !times.candidate)) return "";
  const statistic = (times.baseline ?? times.candidate)?.statistic === "mean" ? "means" : "medians";
  const requests = [times.baseline?.requests ?? 0, times.candidate?.requests ?? 0];
  return (
    `**The engines' own times** (${SOURCES[times.source]}; ${statistic} over ${requests[0]} and ${requests[1]} requests, baseline → ` +
    `candidate): ` +
    `prompt processing ${pair(times, (side) => side.promptMs)} per request, decoding ${pair(times, (side) => side.decodeMsPerToken)} ` +
    `per token. ` +
    "They leave out the queueing and the network that the client's TTFT includes."
  );
}
