/*
 * Writes examples/cards/*.json, the cards the README renders, from made-up but realistic records
 * through the real scoring and card code: `npx tsx scripts/make-example-cards.ts`. A test checks
 * that the committed files are what this writes, so they follow every change to the card.
 */
import { writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { calibrationSettingsOf } from "../src/calibration/calibration-settings.js";
import { fitCalibration } from "../src/calibration/fit-calibration.js";
import { parseRoundConfig } from "../src/config/load-round-config.js";
import type { EngineFailure } from "../src/failure/engine-failure.js";
import { buildScorecard, cardSettings } from "../src/scorecard/build-scorecard.js";
import { calibrationFacts } from "../src/scorecard/rescore-card.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import type { ChunkArrival, RequestRecord } from "../src/scoring/request-record.js";
import { scoreRound } from "../src/scoring/score-round.js";
import { createSeededRandom } from "../src/scoring/seeded-random.js";

const NOW = new Date("2026-11-29T12:00:00Z");
const PROMPTS = [
  "explain-kv-cache", "summarize-rfc-9110", "sql-window-functions", "translate-contract-clause", "python-lru-cache",
  "story-lighthouse", "math-olympiad-geometry", "review-go-diff", "haiku-autumn", "json-schema-from-example",
  "regex-email", "plan-database-migration",
];
const PROVENANCE = {
  imageDigest: "sha256:3f1c0a8d9e2b4f6a7c5d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b",
  baselineImageId: "sha256:aa11bb22cc33dd44ee55ff6600771188229933aa44bb55cc66dd77ee88ff9900",
  patchHash: "9b74c9897bac770ffc029102a200c5de4d0b0b3a6b1a5c3f5d2e1f0a9b8c7d6e",
  configHash: "c1f0e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff",
  promptsHash: "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
  runner: "gpu-runner-3",
  gpu: "NVIDIA H100 80GB HBM3",
};

function config(runs: number, calibration: boolean) {
  return parseRoundConfig({
    engine: "sglang",
    runtime: "docker",
    port: 30000,
    baseline: { image: "lmsysorg/sglang:v0.5.5" },
    candidate: { patch: "./submission.patch", sourceDir: "/sgl-workspace/sglang" },
    bench: { prompts: "./prompts.jsonl", maxTokens: 512, requestIntervalMs: 500, contextLimit: 32768, tolerance: 0.9, runs },
    gate: { minRoundScore: 1.0, ...(calibration ? { calibration: "speedgate-calibration.json" } : {}) },
  });
}

/** A stream of `tokens` tokens, four to a chunk, the first after `ttftMs`, then one every `itlMs`. */
function stream(tokens: number, ttftMs: number, itlMs: number): RequestRecord {
  const chunks: ChunkArrival[] = [];
  for (let reached = 0; reached < tokens; ) {
    reached = Math.min(reached + 4, tokens);
    chunks.push({ tMs: ttftMs + (reached - 1) * itlMs, tokens: reached });
  }
  return { ok: true, chunks, outputTokens: tokens, finishReason: tokens >= 512 ? "length" : "stop", endMs: (chunks.at(-1)?.tMs ?? ttftMs) + 2, tokensEstimated: false };
}

/** A patch 12% faster between tokens, measured three times on a runner whose engine starts differ by about 1%. */
function passingRound(): Scorecard {
  const random = createSeededRandom(29);
  const noise = (sd: number): number => Math.exp(sd * (random() + random() + random() - 1.5) * 2);
  const round = config(3, true);
  const runs = [0, 1, 2].map(() => {
    const baselineStart = noise(0.01);
    const candidateStart = noise(0.01);
    const baseline = new Map<string, RequestRecord>();
    const candidate = new Map<string, RequestRecord>();
    PROMPTS.forEach((id, index) => {
      const tokens = 96 + ((index * 53) % 400);
      baseline.set(id, stream(tokens, 180 * baselineStart * noise(0.03), 11 * baselineStart * noise(0.03)));
      candidate.set(id, stream(tokens, 170 * candidateStart * noise(0.03), (11 / 1.12) * candidateStart * noise(0.03)));
    });
    return { baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } };
  });
  const calibration = fitCalibration(
    {
      measuredAt: "2026-11-20T08:30:00.000Z",
      engine: "sglang",
      runner: PROVENANCE.runner,
      gpu: PROVENANCE.gpu,
      baselineImage: "lmsysorg/sglang:v0.5.5",
      baselineImageId: PROVENANCE.baselineImageId,
      promptsHash: PROVENANCE.promptsHash,
      settings: calibrationSettingsOf(round, PROMPTS.length),
      scores: [0.998, 1.004, 0.991, 1.012, 1.001, 0.987, 1.006, 0.995, 1.009, 1.0, 0.993, 1.015, 0.998, 1.003, 0.989, 1.007, 0.996, 1.002, 1.01, 0.994],
    },
    calibrationFacts({ engine: round.engine, provenance: { ...PROVENANCE, baselineImage: "lmsysorg/sglang:v0.5.5" }, settings: cardSettings(round) }),
  );
  const result = scoreRound({
    promptIds: PROMPTS,
    runs,
    tolerance: round.bench.tolerance,
    gate: round.gate,
    noise: { floor: calibration.noiseFloor, problems: calibration.problems },
  });
  return buildScorecard({ config: round, result, failure: null, calibration, provenance: PROVENANCE, now: NOW });
}

const CUDA_GRAPH_OOM_TAIL = [
  "[2026-11-29 11:58:02] Capture cuda graph begin. This can take up to several minutes. avail mem=3.21 GB",
  "Capturing batches (bs=160 avail_mem=1.02 GB):  62%|██████▏   | 18/29 [00:04<00:02,  4.31it/s]",
  "Traceback (most recent call last):",
  '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 390, in capture',
  "    graph, output_buffers = self.capture_one_batch_size(bs, forward)",
  '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 482, in capture_one_batch_size',
  "    run_once()",
  "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 136.00 MiB. GPU 0 has a total capacity of 79.19 GiB of which 97.06 MiB is free.",
  "[2026-11-29 11:58:07] Received sigquit from a child process. It usually means the child failed.",
];

/** A candidate that runs out of GPU memory while capturing CUDA graphs: no prompt is measured. */
function candidateCudaOom(): Scorecard {
  const round = config(1, false);
  const failure: EngineFailure = {
    engine: "candidate",
    stage: "startup",
    kind: "cuda_oom",
    label: "CUDA out of memory during CUDA graph capture",
    summary: CUDA_GRAPH_OOM_TAIL[7] as string,
    hint: "Lower --mem-fraction-static (0.8, then 0.7), lower --cuda-graph-max-bs, or disable the prefill CUDA graph.",
    exitCode: 1,
    signal: null,
    logTail: CUDA_GRAPH_OOM_TAIL,
  };
  const baseline = new Map(PROMPTS.map((id, index) => [id, stream(96 + ((index * 53) % 400), 180, 11)] as const));
  const result = scoreRound({
    promptIds: PROMPTS,
    runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: new Map(), failure } }],
    tolerance: round.bench.tolerance,
    gate: round.gate,
  });
  return buildScorecard({ config: round, result, failure, provenance: PROVENANCE, now: NOW });
}

export function exampleCards(): Record<string, Scorecard> {
  return { "passing-round.json": passingRound(), "candidate-cuda-oom.json": candidateCudaOom() };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const [name, card] of Object.entries(exampleCards())) {
    await writeFile(new URL(`../examples/cards/${name}`, import.meta.url), `${JSON.stringify(card, null, 2)}\n`);
    process.stdout.write(`wrote examples/cards/${name}\n`);
  }
}
