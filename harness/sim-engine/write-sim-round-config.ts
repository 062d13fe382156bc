import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Prompt } from "../../src/prompts/prompt.js";

/** `count` prompts "<prefix>1".."<prefix>N", each with text of its own, so a reference engine tells them apart by content. */
export function makePromptSet(prefix: string, count: number): Prompt[] {
  return Array.from({ length: count }, (_, index) => ({ id: `${prefix}${index + 1}`, prompt: `${prefix} prompt number ${index + 1}` }));
}

export interface SimRoundConfigOptions {
  /** Prompt files to write beside the config, by file name. */
  promptFiles: Record<string, readonly Prompt[]>;
  bench: Record<string, unknown>;
  gate: Record<string, unknown>;
  scenarios?: readonly unknown[];
  engine?: string;
  /** The config's file name in `dir`; round.yml by default. */
  fileName?: string;
  /** Top-level fields that replace the ones written here (a whole bench, for one). */
  extra?: Record<string, unknown>;
}

/**
 * A round config for a runtime given in code (SimRuntime: the reference engines in process), with its
 * prompt files beside it: the command and port are never used, the health check polls fast. Returns
 * the config's path.
 */
export async function writeSimRoundConfig(dir: string, options: SimRoundConfigOptions): Promise<string> {
  for (const [name, prompts] of Object.entries(options.promptFiles)) {
    await writeFile(join(dir, name), prompts.map((prompt) => JSON.stringify(prompt)).join("\n"));
  }
  const config = {
    engine: options.engine ?? "test",
    runtime: "process",
    port: 1,
    health: { path: "/health", timeoutS: 30, intervalMs: 20 },
    baseline: { command: ["unused"] },
    bench: options.bench,
    gate: options.gate,
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    ...options.extra,
  };
  const path = join(dir, options.fileName ?? "round.yml");
  await writeFile(path, stringify(config));
  return path;
}
