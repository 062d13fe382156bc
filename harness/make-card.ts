import { readFileSync } from "node:fs";
import { parseRoundConfig } from "../src/config/load-round-config.js";
import type { EngineFailure } from "../src/vocabulary/engine-failure.js";
import type { GpuSnapshot } from "../src/vocabulary/gpu-state-schema.js";
import { buildScorecard } from "../src/scorecard/build-scorecard.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import { toLogTail } from "../src/safe-text/sanitize-log-tail.js";
import type { RequestRecord } from "../src/scoring/request-record.js";
import { scoreRound } from "../src/scoring/score-round.js";
import { failedRequest, steadyStream } from "./make-records.js";

export const testConfig = parseRoundConfig({
  engine: "sglang",
  runtime: "docker",
  port: 30000,
  baseline: { image: "lmsysorg/sglang:v0.5.5" },
  candidate: { patch: "./submission.patch", sourceDir: "/sgl-workspace/sglang" },
  bench: { prompts: "./prompts.jsonl", maxTokens: 512, requestIntervalMs: 500, contextLimit: 32768, tolerance: 0.9, runs: 1 },
  gate: { minRoundScore: 1.0 },
});

export type PromptPlan =
  | { speedup: number; tokens?: number }
  | { candidateTokens: number; tokens?: number }
  | { candidateError: string }
  | { baselineError: string };

const FIXED_NOW = new Date("2026-11-29T12:00:00Z");
const PROVENANCE = {
  imageDigest: "sha256:3f1c0a8d9e2b4f6a7c5d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b",
  baselineImageId: "sha256:aa11bb22cc33dd44ee55ff6600771188229933aa44bb55cc66dd77ee88ff9900",
  patchHash: "9b74c9897bac770ffc029102a200c5de4d0b0b3a6b1a5c3f5d2e1f0a9b8c7d6e",
  runner: "gpu-runner-3",
  gpu: "NVIDIA H100 80GB HBM3",
};

export const TEST_DOCS_BASE_URL = "https://github.com/speedgate-dev/speedgate/blob/v0.1.0/docs/troubleshooting/";

export interface MakeCardOptions {
  failure?: EngineFailure | null;
  config?: typeof testConfig;
  gpuSnapshots?: { baseline: GpuSnapshot | null; candidate: GpuSnapshot | null };
  docsBaseUrl?: string | null;
  /** A scenario's prompts file as its config writes it. */
  promptsSource?: string;
}

/** A card made the way a round makes it: hand-made timelines through the real scoring rule. */
export function makeCard(plans: PromptPlan[], options: MakeCardOptions = {}): Scorecard {
  const config = options.config ?? testConfig;
  const ids = plans.map((_, index) => `prompt-${String(index + 1).padStart(3, "0")}`);
  const baseline = new Map<string, RequestRecord>();
  const candidate = new Map<string, RequestRecord>();
  plans.forEach((plan, index) => {
    const id = ids[index] as string;
    const tokens = "tokens" in plan && plan.tokens ? plan.tokens : 256;
    const reference = steadyStream({ tokens, ttftMs: 120, itlMs: 20 });
    // Requests leave on the round's schedule, as the benchmark sends them.
    const sentMs = index * config.bench.requestIntervalMs;
    if ("baselineError" in plan) baseline.set(id, failedRequest(plan.baselineError));
    else baseline.set(id, { ...reference, sentMs });
    if ("speedup" in plan) candidate.set(id, { ...steadyStream({ tokens, ttftMs: 120 / plan.speedup, itlMs: 20 / plan.speedup }), sentMs });
    else if ("candidateTokens" in plan)
      candidate.set(id, { ...steadyStream({ tokens: plan.candidateTokens, ttftMs: 60, itlMs: 10, finishReason: "stop" }), sentMs });
    else if ("candidateError" in plan) candidate.set(id, failedRequest(plan.candidateError));
    else candidate.set(id, { ...steadyStream({ tokens, ttftMs: 100, itlMs: 18 }), sentMs });
  });
  const failure = options.failure ?? null;
  const candidateFailed = failure?.engine === "candidate" && failure.stage !== "benchmark";
  const baselineFailed = failure?.engine === "baseline" && failure.stage !== "benchmark";
  const preparing = failure !== null && (failure.stage === "patch" || failure.stage === "build");
  const result = scoreRound({
    promptIds: ids,
    // A patch or build failure ends the round before any engine starts: no run at all.
    runs: preparing
      ? []
      : [
          {
            baseline: { records: baselineFailed ? new Map() : baseline, failure: failure?.engine === "baseline" ? failure : null },
            candidate: {
              records: candidateFailed || baselineFailed ? new Map() : candidate,
              failure: failure?.engine === "candidate" ? failure : null,
            },
          },
        ],
    failure,
    tolerance: config.bench.tolerance,
    gate: config.gate,
  });
  return buildScorecard({
    config,
    result,
    failure,
    provenance: PROVENANCE,
    now: FIXED_NOW,
    gpuSnapshots: options.gpuSnapshots,
    docsBaseUrl: options.docsBaseUrl === undefined ? TEST_DOCS_BASE_URL : options.docsBaseUrl,
    ...(options.promptsSource !== undefined ? { promptsSource: options.promptsSource } : {}),
  });
}

export function seedOomFailure(): EngineFailure {
  const log = readFileSync(new URL("./fixtures/sglang-cuda-graph-oom.log", import.meta.url), "utf8");
  const logTail = toLogTail(log);
  return {
    engine: "candidate",
    stage: "startup",
    kind: "cuda_oom",
    label: "CUDA out of memory during CUDA graph capture",
    summary: logTail.find((line) => line.startsWith("torch.OutOfMemoryError")) ?? "",
    hint: "Lower --mem-fraction-static (0.8, then 0.7), lower --cuda-graph-max-bs, or disable the prefill CUDA graph.",
    exitCode: 1,
    signal: null,
    logTail,
  };
}
