import { monitorEventLoopDelay } from "node:perf_hooks";
import { WorkerCardReader } from "../bot/read-cards-off-thread.js";
import { DEFAULT_ZIP_LIMITS } from "../src/github/read-scorecard-zip.js";
import { DEFAULT_MAX_UNSCORED, DEFAULT_MIN_PROMPTS } from "../src/scoring/evaluate-gate.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import { makeTestScorecard, zipScorecard } from "../harness/fake-github/make-test-scorecard.js";

export interface BigCardResult {
  prompts: number;
  jsonBytes: number;
  /** From handing the zip to the worker to its result (warm worker). */
  workerMs: number;
  /** The app's event loop's longest stall while the worker read the card. */
  loopMaxStallMs: number;
}

/**
 * Issue #12, point 13: a schema-valid card at the app's limits (the per-card prompt limit, a full log
 * tail, long reasons) read the way the app reads it, in its worker thread, while the event loop's
 * delay is sampled: the loop must stay free for other deliveries and the health check.
 */
export async function measureBigCard(): Promise<BigCardResult> {
  const prompts = DEFAULT_ZIP_LIMITS.maxPrompts;
  const base = makeTestScorecard({ scores: Array.from({ length: prompts }, (_, index) => 0.5 + (index % 100) / 100) });
  const card: Scorecard = {
    ...base,
    prompts: base.prompts.map((prompt) => ({ ...prompt, reason: `note ${"r".repeat(1_000)}` })),
    failure: {
      engine: "candidate",
      stage: "benchmark",
      kind: "cuda_oom",
      label: "oom",
      summary: "oom",
      hint: "h",
      exitCode: 1,
      signal: null,
      logTail: Array.from({ length: 2_000 }, (_, index) => `${index} ${"x".repeat(3_990)}`),
    },
  };
  const jsonBytes = Buffer.byteLength(JSON.stringify(card));
  const zip = zipScorecard(card);
  const reader = new WorkerCardReader();
  const job = {
    zip,
    source: "bench",
    limits: DEFAULT_ZIP_LIMITS,
    gate: { minRoundScore: 1, use: "round-score" as const, maxUnscored: DEFAULT_MAX_UNSCORED, minPrompts: DEFAULT_MIN_PROMPTS },
    docsBaseUrl: null,
  };
  try {
    // The first read also starts the worker; the figure is a warm one, as for every card after the first.
    await reader.read({ ...job, zip: zipScorecard(makeTestScorecard()) });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const result = await reader.read(job);
    const workerMs = performance.now() - started;
    delay.disable();
    if (!result.ok) throw new Error(`the maximal card was refused: ${result.problem}`);
    return { prompts, jsonBytes, workerMs, loopMaxStallMs: delay.max / 1e6 };
  } finally {
    await reader.close();
  }
}
