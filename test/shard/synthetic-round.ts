import { parseRoundConfig } from "../../src/config/load-round-config.js";
import type { RoundConfig } from "../../src/config/round-config-schema.js";
import type { EngineFailure } from "../../src/vocabulary/engine-failure.js";
import { buildScorecard } from "../../src/scorecard/build-scorecard.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import type { RequestRecord } from "../../src/scoring/request-record.js";
import { scoreRound } from "../../src/scoring/score-round.js";
import type { ShardSpec } from "../../src/shard/shard-spec.js";

/** Recorded engine results for a round, made up but shaped like the benchmark client's. */
export interface RecordedRound {
  promptIds: string[];
  baseline: Map<string, RequestRecord>;
  candidate: Map<string, RequestRecord>;
}

export const syntheticConfig: RoundConfig = parseRoundConfig({
  engine: "sglang",
  runtime: "docker",
  port: 30000,
  baseline: { image: "lmsysorg/sglang:v0.5.5" },
  bench: { prompts: "prompts.jsonl", maxTokens: 256, requestIntervalMs: 50, contextLimit: 8192, tolerance: 0.9, runs: 1 },
  gate: { minRoundScore: 1.0 },
});

export const syntheticProvenance = {
  baselineImageId: "sha256:base",
  imageDigest: "sha256:cand",
  patchHash: "p".repeat(64),
  configHash: "c".repeat(64),
  promptsHash: "q".repeat(64),
};

function streamed(tokens: number, msPerToken: number): RequestRecord {
  const chunks = Array.from({ length: tokens }, (_, index) => ({ tMs: 20 + (index + 1) * msPerToken, tokens: index + 1 }));
  return { ok: true, chunks, outputTokens: tokens, finishReason: "length", endMs: 25 + tokens * msPerToken, tokensEstimated: false };
}

/** Mostly faster candidates, with a few prompts of every other kind so the merge sees them all. */
export function recordRound(promptCount: number): RecordedRound {
  const promptIds = Array.from({ length: promptCount }, (_, index) => `p-${String((index * 37) % promptCount).padStart(3, "0")}`);
  const baseline = new Map<string, RequestRecord>();
  const candidate = new Map<string, RequestRecord>();
  promptIds.forEach((id, index) => {
    const tokens = 40 + (index % 7) * 10;
    baseline.set(id, index % 23 === 5 ? { ok: false, kind: "http_error", reason: "HTTP 500" } : streamed(tokens, 10));
    if (index % 17 === 3) candidate.set(id, { ok: false, kind: "timeout", reason: "no answer in 600 s" });
    else if (index % 19 === 4) candidate.set(id, streamed(Math.floor(tokens / 2), 8));
    else candidate.set(id, streamed(tokens, 10 / (0.8 + (index % 11) * 0.06)));
  });
  return { promptIds, baseline, candidate };
}

function pick(records: Map<string, RequestRecord>, ids: readonly string[]): Map<string, RequestRecord> {
  return new Map(ids.flatMap((id) => (records.has(id) ? [[id, records.get(id) as RequestRecord] as const] : [])));
}

/** The same answers, every chunk arriving `factor` times later: another engine start of another speed. */
function slower(records: Map<string, RequestRecord>, factor: number): Map<string, RequestRecord> {
  return new Map(
    [...records].map(([id, record]) => [
      id,
      record.ok
        ? { ...record, chunks: record.chunks.map((chunk) => ({ ...chunk, tMs: chunk.tMs * factor })), endMs: record.endMs * factor }
        : record,
    ]),
  );
}

/**
 * The card runRound would write for these records: the whole round, or one shard's share of it.
 * With `runs`, each further run's candidate is a few percent slower, as a restarted engine can be.
 */
export function cardFor(
  recorded: RecordedRound,
  promptIds: readonly string[],
  options: {
    shard?: ShardSpec | null;
    candidateFailure?: EngineFailure | null;
    baselineFailure?: EngineFailure | null;
    runs?: number;
  } = {},
): Scorecard {
  const runs = options.runs ?? 1;
  const config = { ...syntheticConfig, bench: { ...syntheticConfig.bench, runs } };
  const result = scoreRound({
    promptIds,
    runs: Array.from({ length: runs }, (_, run) => ({
      baseline: { records: pick(recorded.baseline, promptIds), failure: options.baselineFailure ?? null },
      candidate: {
        records: options.candidateFailure ? new Map() : slower(pick(recorded.candidate, promptIds), 1 + 0.03 * run),
        failure: options.candidateFailure ?? null,
      },
    })),
    tolerance: config.bench.tolerance,
    gate: config.gate,
  });
  return buildScorecard({
    config,
    result,
    failure: options.baselineFailure ?? options.candidateFailure ?? null,
    provenance: syntheticProvenance,
    source: { repository: "Codertocat/Hello-World", pullRequest: 2, headSha: "e".repeat(40), runId: "77", runUrl: null },
    shard: options.shard ?? null,
  });
}

export const candidateOom: EngineFailure = {
  engine: "candidate",
  stage: "startup",
  kind: "cuda_oom",
  label: "CUDA out of memory",
  summary: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
  hint: "Lower --mem-fraction-static.",
  exitCode: 1,
  signal: null,
  logTail: ["torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"],
};
