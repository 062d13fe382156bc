import { zipSync } from "fflate";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { SCORECARD_SCHEMA_VERSION, type Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { emptyProvenance } from "../../src/scorecard/build-scorecard.js";

export interface TestCardOptions {
  /** One score per prompt; the round score is their median. By default twelve prompts around 1.20×, enough for a verdict. */
  scores?: number[];
  minRoundScore?: number;
  failure?: Scorecard["failure"];
  source?: Scorecard["source"];
  promptIdLength?: number;
}

/** A valid card whose summary and gate already agree with its prompts. */
export function makeTestScorecard(options: TestCardOptions = {}): Scorecard {
  const scores = options.scores ?? [1.2, 1.3, 1.1, 1.25, 1.15, 1.2, 1.22, 1.18, 1.3, 1.1, 1.21, 1.19];
  const card: Scorecard = {
    schemaVersion: SCORECARD_SCHEMA_VERSION,
    speedgateVersion: "0.1.0",
    createdAt: "2026-01-01T00:00:00.000Z",
    engine: "sglang",
    roundScore: null,
    scoreInterval: null,
    runs: { completed: 1, scores: [null] },
    promptsScored: 0,
    promptsTotal: 0,
    belowTolerance: 0,
    diverged: 0,
    implausible: 0,
    zeroedTotal: 0,
    unscored: 0,
    excluded: 0,
    tokenCountsEstimated: false,
    settings: {
      requestIntervalMs: 100,
      arrival: "fixed",
      thinking: false,
      contextLimit: 8192,
      maxTokens: 256,
      tolerance: 0.9,
      model: "m",
      runs: 1,
    },
    provenance: emptyProvenance(),
    metrics: null,
    gpuState: null,
    docsBaseUrl: null,
    gate: {
      minRoundScore: 1,
      use: "round-score",
      maxUnscored: 0.1,
      minPrompts: 10,
      bar: 1,
      passed: false,
      reason: "",
      reasons: [],
      rule: null,
      calibration: null,
    },
    failure: options.failure ?? null,
    source: options.source ?? null,
    shard: null,
    convertedFrom: null,
    prompts: scores.map((score, index) => ({
      id: `p${String(index).padStart(options.promptIdLength ?? 4, "0")}`,
      status: "scored" as const,
      score,
      speedup: score,
      comparedTokens: 100,
      reason: null,
      baseline: { outputTokens: 100, ttftMs: 10, e2eMs: 100 * score, finishReason: "length", error: null },
      candidate: { outputTokens: 100, ttftMs: 10, e2eMs: 100, finishReason: "length", error: null },
      // The times at k make the score: the card's score fields are recomputed from them.
      runs: [
        {
          status: "scored" as const,
          reason: null,
          candidateAttempted: true,
          comparedTokens: 100,
          baselineTokens: 100,
          candidateTokens: 100,
          baselineMs: 100 * score,
          candidateMs: 100,
        },
      ],
    })),
  };
  return regateScorecard(card, { minRoundScore: options.minRoundScore ?? 1, use: "round-score", maxUnscored: 0.1, minPrompts: 10 }, null);
}

/** An artifact zip as upload-artifact makes it: scorecard.json at the top level, deflated. */
export function zipScorecard(card: Scorecard | string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const json = typeof card === "string" ? card : JSON.stringify(card);
  return zipSync({ "scorecard.json": new TextEncoder().encode(json), ...extra }, { level: 6 });
}
