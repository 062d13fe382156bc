import type { CardRecord } from "../../../src/store/card-history.js";

let nextRun = 1000;

/** A card row as the app would store it; each call is a new run unless `runId` is given. */
export function makeCardRecord(overrides: Partial<CardRecord> = {}): CardRecord {
  const roundScore = overrides.roundScore === undefined ? 1.1 : overrides.roundScore;
  return {
    repository: "octo/engine",
    pullRequest: 1,
    headSha: "a".repeat(40),
    runId: nextRun++,
    runAttempt: 1,
    runUrl: null,
    roundScore,
    interval: roundScore === null ? null : { low: roundScore - 0.02, high: roundScore + 0.03, confidence: 0.95 },
    gate: { passed: (roundScore ?? 0) >= 1.05, minRoundScore: 1.05, use: "round-score" },
    scenarios: null,
    failure: null,
    imageDigest: "sha256:abc",
    patchHash: "9b74c989",
    runner: "gpu-runner-3",
    gpu: "NVIDIA H100 80GB HBM3",
    engine: "sglang",
    speedgateVersion: "0.1.0",
    cardCreatedAt: "2026-11-29T12:00:00.000Z",
    ...overrides,
  };
}
