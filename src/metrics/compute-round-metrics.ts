import type { RequestRecord } from "../scoring/request-record.js";
import { compareEngineMetrics } from "./compare-engine-metrics.js";
import type { RoundMetrics } from "./metrics-schema.js";
import { type RequestSample, sampleRequest } from "./sample-request.js";
import { type EngineTotals, summarizeEngineMetrics } from "./summarize-engine-metrics.js";
import { HistogramBuilder } from "./value-histogram.js";

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
  const ttft = new HistogramBuilder();
  const tpot = new HistogramBuilder();
  const itl = new HistogramBuilder();
  const e2e = new HistogramBuilder();
  let outputTokens = 0;
  for (const sample of engine.samples) {
    ttft.add(sample.ttftMs);
    if (sample.tpotMs !== null) tpot.add(sample.tpotMs);
    for (const gap of sample.itlMs) itl.add(gap);
    e2e.add(sample.e2eMs);
    outputTokens += sample.tokens;
  }
  return {
    requests: engine.samples.length,
    outputTokens,
    durationMs: engine.durationMs,
    distributions: { ttftMs: ttft.build(), tpotMs: tpot.build(), itlMs: itl.build(), e2eMs: e2e.build() },
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
