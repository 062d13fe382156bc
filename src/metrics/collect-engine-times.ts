import type { EngineFamily } from "../vocabulary/engine-family.js";
import type { EngineRole } from "../vocabulary/engine-failure.js";
import type { RoundResult, RoundRun } from "../scoring/score-round.js";
import type { EngineReportedTimes, ReportedEngineTimes } from "../vocabulary/engine-reported-times.js";
import { summarizeReportedTimes } from "./summarize-reported-times.js";

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/** Means from several runs' metrics, each weighted by the requests it covers. */
function poolMeans(parts: readonly ReportedEngineTimes[]): ReportedEngineTimes | null {
  const requests = parts.reduce((total, part) => total + part.requests, 0);
  if (parts.length === 0 || requests === 0) return null;
  const pool = (pick: (part: ReportedEngineTimes) => number | null): number | null => {
    const known = parts.filter((part) => pick(part) !== null && part.requests > 0);
    const weight = known.reduce((total, part) => total + part.requests, 0);
    return weight === 0 ? null : round3(known.reduce((total, part) => total + (pick(part) ?? 0) * part.requests, 0) / weight);
  };
  return { requests, promptMs: pool((part) => part.promptMs), decodeMsPerToken: pool((part) => part.decodeMsPerToken), statistic: "mean" };
}

/**
 * The card's engine-reported times: llama.cpp's per-request timings over the scored prompts of every
 * run when its answers carried them, else what SGLang's or vLLM's metrics said over each run's
 * measured requests; null when the engines reported neither.
 */
export function collectEngineTimes(
  family: EngineFamily | null,
  runs: readonly RoundRun[],
  result: RoundResult,
): EngineReportedTimes | null {
  const scored = result.prompts.flatMap((prompt) => prompt.runs.filter((run) => run.status === "scored"));
  const fromTimings = (role: EngineRole) =>
    summarizeReportedTimes(scored.map((run) => (role === "baseline" ? run.baselineRecord : run.candidateRecord)));
  const baselineTimings = fromTimings("baseline");
  const candidateTimings = fromTimings("candidate");
  if (baselineTimings || candidateTimings) return { source: "llama.cpp timings", baseline: baselineTimings, candidate: candidateTimings };
  if (family !== "sglang" && family !== "vllm") return null;
  const fromMetrics = (role: EngineRole) => poolMeans(runs.flatMap((run) => (run[role].reportedTimes ? [run[role].reportedTimes] : [])));
  const baseline = fromMetrics("baseline");
  const candidate = fromMetrics("candidate");
  return baseline || candidate ? { source: family === "sglang" ? "sglang metrics" : "vllm metrics", baseline, candidate } : null;
}
