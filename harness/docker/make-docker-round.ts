import { randomUUID } from "node:crypto";
import { hashPatch } from "../../src/config/load-patch.js";
import type { LoadedRound } from "../../src/config/load-round-config.js";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import type { Prompt } from "../../src/prompts/prompt.js";
import type { RoundCommits } from "../../src/config/resolve-round-commits.js";
import { ENGINE_SOURCE_DIR, testPrompt } from "./build-test-engine-image.js";

/**
 * The patch every "good" test round applies: the reference engine streams tokens twelve times faster (48 ms -> 4 ms between tokens: a
 * contrast a loaded runner cannot hide).
 */
export const SPEEDUP_PATCH = `--- a/profile.json
+++ b/profile.json
@@ -3,5 +3,5 @@
   "defaults": {
     "ttftMs": 30,
-    "itlMs": 48,
+    "itlMs": 4,
     "outputTokens": 12,
     "reasoningTokens": 0,
`;

/** Written against a source tree that never existed: it cannot apply. */
export const CONFLICTING_PATCH = `--- a/profile.json
+++ b/profile.json
@@ -3,5 +3,5 @@
   "defaults": {
     "ttftMs": 30,
-    "itlMs": 99,
+    "itlMs": 1,
     "outputTokens": 12,
     "reasoningTokens": 0,
`;

/** `speedgate sim-engine` inside the test image, with extra flags (faults) appended. */
export function simEngineCommand(...extra: string[]): string[] {
  return [
    "node",
    "/opt/speedgate/cli.mjs",
    "sim-engine",
    "--port",
    "{port}",
    "--host",
    "{host}",
    "--profile",
    `${ENGINE_SOURCE_DIR}/profile.json`,
    ...extra,
  ];
}

export function makePrompts(count: number): Prompt[] {
  return Array.from({ length: count }, (_, index) => testPrompt(index));
}

export interface DockerRoundOptions {
  image: string;
  port: number;
  patch?: string | null;
  /** Overrides merged into the config object before validation. */
  baseline?: Record<string, unknown>;
  candidate?: Record<string, unknown>;
  docker?: Record<string, unknown>;
  health?: Record<string, unknown>;
  build?: Record<string, unknown>;
  bench?: Record<string, unknown>;
  /** The config's source section (base/head mode). */
  source?: Record<string, unknown>;
  /** Score these commits (base/head mode) instead of a patch. */
  commits?: RoundCommits;
  engine?: string;
  prompts?: number;
}

/** A docker round config for the test image, validated by the real schema, with a fresh run id. */
export function makeDockerRound(options: DockerRoundOptions): { round: LoadedRound; runId: string } {
  const patch = options.patch === undefined ? SPEEDUP_PATCH : options.patch;
  const config = parseRoundConfig({
    engine: options.engine ?? "sim",
    runtime: "docker",
    port: options.port,
    health: { path: "/health", timeoutS: 30, intervalMs: 50, ...options.health },
    baseline: { image: options.image, command: simEngineCommand(), ...options.baseline },
    candidate: { ...(patch ? { patch: "/tmp/candidate.patch", sourceDir: ENGINE_SOURCE_DIR } : {}), ...options.candidate },
    bench: {
      prompts: "/tmp/prompts.jsonl",
      model: "sim-model",
      maxTokens: 64,
      requestIntervalMs: 5,
      contextLimit: 4096,
      tolerance: 0.05,
      runs: 1,
      ...options.bench,
    },
    gate: { minRoundScore: 1.0 },
    // No memlock raise: this sandbox may not lift RLIMIT_MEMLOCK (the default asks for unlimited).
    docker: { network: "host", shmSize: "64m", stopTimeoutS: 1, ulimits: [{ name: "nofile", soft: 4096, hard: 4096 }], ...options.docker },
    build: { timeoutS: 120, ...options.build },
    ...(options.source ? { source: options.source } : {}),
  });
  const bytes = patch ? Buffer.from(patch) : null;
  return {
    runId: `test-${randomUUID().slice(0, 8)}`,
    round: {
      config,
      configPath: "/tmp/round.yaml",
      prompts: makePrompts(options.prompts ?? 6),
      patch: bytes ? { path: "/tmp/candidate.patch", bytes, sha256: hashPatch(bytes) } : null,
      commits: options.commits ?? null,
    },
  };
}
