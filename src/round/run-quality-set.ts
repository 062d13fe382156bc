import { performance } from "node:perf_hooks";
import { runBenchmark } from "../client/run-benchmark.js";
import type { BenchSettings } from "../config/bench-settings-schema.js";
import type { QualitySettings } from "../config/quality-settings-schema.js";
import type { Question } from "../prompts/question.js";
import { gradeAnswer } from "../scoring/grade-answer.js";
import type { RequestRecord } from "../scoring/request-record.js";
import type { EngineFamily } from "../vocabulary/engine-family.js";

/** A round's question set and how to ask it: what runEngine needs to run it after the bench's workloads. */
export interface QualityRun {
  questions: readonly Question[];
  settings: QualitySettings;
}

export interface QualitySetResult {
  /** Per question asked: right, or wrong (a wrong answer or a failed request). */
  right: Map<string, boolean>;
  /** The requests as the client recorded them, for telling an engine's death from a failed answer. */
  records: Map<string, RequestRecord>;
  ms: number;
}

/**
 * Asks one running engine every question of the set, after the bench's workloads in the same start, and
 * grades each answer. A closed loop of quality.concurrency requests, temperature 0, quality.maxTokens,
 * no warm-up and nothing that names a question: the same request an engine gets for a prompt, so it
 * cannot tell a question from the bench by how it is asked. Its answers are not timed and the bench's
 * are over by then, so it takes nothing from the speed measurement; the card shows its time apart.
 */
export async function runQualitySet(options: {
  baseUrl: string;
  quality: QualityRun;
  bench: BenchSettings;
  engineFamily: EngineFamily | null;
  signal: AbortSignal;
  engineGone: AbortSignal;
  onProgress?: (progress: { done: number; total: number; failed: number }) => void;
}): Promise<QualitySetResult> {
  const { quality } = options;
  const started = performance.now();
  const asked = quality.questions.map(({ answer: _answer, ...prompt }) => prompt);
  const records = await runBenchmark({
    baseUrl: options.baseUrl,
    prompts: asked,
    bench: {
      ...options.bench,
      // A prompt file's answers end where the model ends them (no ignore_eos); the set's own limit and load.
      prompts: quality.settings.questions,
      maxTokens: quality.settings.maxTokens,
      concurrency: quality.settings.concurrency,
      requestIntervalMs: 0,
      arrival: "fixed",
      warmupRequests: 0,
      clientWarmup: false,
    },
    engineFamily: options.engineFamily,
    signal: options.signal,
    engineGone: options.engineGone,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const right = new Map<string, boolean>();
  for (const question of quality.questions) {
    const record = records.get(question.id);
    right.set(question.id, record?.ok === true && gradeAnswer(quality.settings.scorer, record.text?.content ?? "", question.answer).right);
  }
  return { right, records, ms: performance.now() - started };
}
