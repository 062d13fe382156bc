import type { RequestRecord } from "../scoring/request-record.js";
import { compareEngineMetrics } from "./compare-engine-metrics.js";
import type { LatencyMetric, RoundMetrics } from "./metrics-schema.js";
import { type RequestSample, sampleRequest } from "./sample-request.js";
import { type EngineTotals, summarizeEngineMetrics } from "./summarize-engine-metrics.js";
import { buildHistogram } from "./value-histogram.js";

/** The little of a scored prompt the metrics need: both records and the length they were compared at. */
export interface PairedRequest {
  status: string;
  comparedTokens: number | null;
  baseline: RequestRecord | null;
  candidate: RequestRecord | null;
}

interface EngineSamples {
  samples: RequestSample[];
  durationMs: number;
}

/** A run's span: from its first request sent to the last compared token received. */
function runSpan(samples: readonly RequestSample[]): number {
  if (samples.length === 0) return 0;
  // A loop, not Math.min(...list): rounds of 100,000 prompts would overflow the argument limit.
  let start = Infinity;
  let end = -Infinity;
  for (const sample of samples) {
    start = Math.min(start, sample.sentMs);
    end = Math.max(end, sample.sentMs + sample.e2eMs);
  }
  return Math.max(0, end - start);
}

function totals(engine: EngineSamples): EngineTotals {
  const pick = (metric: LatencyMetric): number[] =>
    engine.samples.flatMap((sample) => {
      const value = sample[metric];
      return value === null ? [] : Array.isArray(value) ? value : [value];
    });
  return {
    requests: engine.samples.length,
    outputTokens: engine.samples.reduce((sum, sample) => sum + sample.tokens, 0),
    durationMs: engine.durationMs,
    distributions: {
      ttftMs: buildHistogram(pick("ttftMs")),
      tpotMs: buildHistogram(pick("tpotMs")),
      itlMs: buildHistogram(pick("itlMs")),
      e2eMs: buildHistogram(pick("e2eMs")),
    },
  };
}

/**
 * TTFT, TPOT, ITL and end-to-end percentiles, output tokens per second and requests per second for
 * each engine, over the scored prompts of one or more benchmark runs (each run a list of prompts
 * both engines answered in that run), every stream cut at the length the prompt was compared at.
 * Null when no prompt was scored: there is nothing both engines did alike to compare.
 */
export function computeRoundMetrics(runs: ReadonlyArray<ReadonlyArray<PairedRequest>>): RoundMetrics | null {
  const baseline: EngineSamples = { samples: [], durationMs: 0 };
  const candidate: EngineSamples = { samples: [], durationMs: 0 };
  let prompts = 0;
  for (const run of runs) {
    const runBaseline: RequestSample[] = [];
    const runCandidate: RequestSample[] = [];
    for (const prompt of run) {
      if (prompt.status !== "scored" || prompt.comparedTokens === null) continue;
      if (!prompt.baseline?.ok || !prompt.candidate?.ok) continue;
      const b = sampleRequest(prompt.baseline, prompt.comparedTokens);
      const c = sampleRequest(prompt.candidate, prompt.comparedTokens);
      if (!b || !c) continue;
      runBaseline.push(b);
      runCandidate.push(c);
      prompts++;
    }
    baseline.samples.push(...runBaseline);
    candidate.samples.push(...runCandidate);
    baseline.durationMs += runSpan(runBaseline);
    candidate.durationMs += runSpan(runCandidate);
  }
  if (prompts === 0) return null;
  const baselineMetrics = summarizeEngineMetrics(totals(baseline));
  const candidateMetrics = summarizeEngineMetrics(totals(candidate));
  return {
    basis: "equal_length",
    prompts,
    baseline: baselineMetrics,
    candidate: candidateMetrics,
    ratio: compareEngineMetrics(baselineMetrics, candidateMetrics),
  };
}
