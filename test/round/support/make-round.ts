import { join } from "node:path";
import type { LoadedRound } from "../../../src/config/load-round-config.js";
import { parseRoundConfig } from "../../../src/config/load-round-config.js";
import type { Prompt } from "../../../src/prompts/prompt.js";

/** A process-runtime round around an arbitrary command, with config defaults filled by the real schema. */
export function makeProcessRound(options: {
  port: number;
  command: string[];
  candidateCommand?: string[];
  cwd?: string;
  /** The baseline's (and so the candidate's) environment from the config. */
  env?: Record<string, string>;
  prompts?: Prompt[];
  health?: { timeoutS?: number; intervalMs?: number };
  overrides?: Record<string, unknown>;
}): LoadedRound {
  const config = parseRoundConfig({
    engine: "test",
    runtime: "process",
    port: options.port,
    health: { path: "/health", timeoutS: options.health?.timeoutS ?? 30, intervalMs: options.health?.intervalMs ?? 20 },
    baseline: { command: options.command, ...(options.cwd ? { cwd: options.cwd } : {}), ...(options.env ? { env: options.env } : {}) },
    candidate: options.candidateCommand ? { command: options.candidateCommand } : {},
    bench: { prompts: "prompts.jsonl", maxTokens: 16, requestIntervalMs: 0, contextLimit: 4096, tolerance: 0.9, runs: 1 },
    gate: { minRoundScore: 1 },
    docker: { stopTimeoutS: 1 },
    ...options.overrides,
  });
  return {
    config,
    configPath: join(options.cwd ?? process.cwd(), "round.yml"),
    prompts: options.prompts ?? [{ id: "p1", prompt: "hi" }],
    patch: null,
  };
}
