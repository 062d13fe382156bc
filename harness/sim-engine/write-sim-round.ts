import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import type { z } from "zod";
import type { roundConfigSchema } from "../../src/config/round-config-schema.js";
import type { Prompt } from "../../src/prompts/prompt.js";

/** A round config as it is written, before defaults: what the options below are typed by. */
type RoundConfigInput = z.input<typeof roundConfigSchema>;

/** `count` prompts "<prefix>1".."<prefix>N", each with text of its own, so a reference engine tells them apart by content. */
export function makePromptSet(prefix: string, count: number): Prompt[] {
  return Array.from({ length: count }, (_, index) => ({ id: `${prefix}${index + 1}`, prompt: `${prefix} prompt number ${index + 1}` }));
}

/** Stands for the round's first prompts file in an engine command; writeSimRound writes its absolute path there. */
export const PROMPTS_FILE = "<round prompts file>";

/** `speedgate sim-engine` (the reference engine) on the round's port, with `flags` after it. */
export function simEngineCommand(...flags: string[]): string[] {
  return ["{node}", "{speedgate}", "sim-engine", "--port", "{port}", ...flags];
}

/** `command` with PROMPTS_FILE replaced by `path`: for an engine that reads another round's prompts file. */
export function withPromptsFile(command: readonly string[], path: string): string[] {
  return command.map((arg) => (arg === PROMPTS_FILE ? path : arg));
}

export interface SimRoundOptions {
  /** The engines' port: one free now for the process runtime; any for a round run in process (SimRuntime), which binds none. */
  port: number;
  /** The prompt files written beside the config, by name; bench.prompts names the first unless `bench` says otherwise. */
  prompts: Readonly<Record<string, readonly Prompt[]>>;
  /** The baseline engine: `speedgate sim-engine` on the port unless a command is given, run in the config's folder unless cwd says. */
  baseline?: Partial<Extract<RoundConfigInput["baseline"], { command?: unknown }>>;
  /** The candidate's fields (a command, sourceDir and patch, trusted…); without a command or source it runs the baseline's command. */
  candidate?: RoundConfigInput["candidate"];
  /** Health polling of the reference engine's /health: 60 s at most, every 25 ms, unless given. */
  health?: { timeoutS?: number; intervalMs?: number };
  /**
   * Bench settings over these: the first prompts file, 16 tokens, a request every 10 ms, 4,096 tokens of context,
   * tolerance 0.9, one run. `prompts: undefined` leaves bench without prompts (each scenario then names its own).
   */
  bench?: Partial<RoundConfigInput["bench"]>;
  /** Gate settings over a bar of 1. */
  gate?: Partial<RoundConfigInput["gate"]>;
  scenarios?: RoundConfigInput["scenarios"];
  /** The engine's name on the card: sim-engine unless given. */
  engine?: string;
  /** The config's file name in the folder: round.yml unless given. */
  fileName?: string;
  /** Top-level fields written over all the others as given (a Docker runtime for a plan, a source section). */
  extra?: Partial<RoundConfigInput>;
}

/**
 * The one writer of a round on the reference engine: its prompt files and its config (YAML) in `dir`, a
 * process round whose engines stop within 2 s. PROMPTS_FILE in either engine's command becomes the first
 * prompts file's path. Returns the config's path.
 */
export async function writeSimRound(dir: string, options: SimRoundOptions): Promise<string> {
  const files = Object.entries(options.prompts);
  for (const [name, prompts] of files) await writeFile(join(dir, name), `${prompts.map((prompt) => JSON.stringify(prompt)).join("\n")}\n`);
  const first = files[0]?.[0];
  const promptsPath = join(dir, first ?? "prompts.jsonl");
  const resolve = (command: readonly string[]): string[] => withPromptsFile(command, promptsPath);
  const baseline = { ...options.baseline, command: resolve(options.baseline?.command ?? simEngineCommand()) };
  const candidate = options.candidate?.command ? { ...options.candidate, command: resolve(options.candidate.command) } : options.candidate;
  const config = {
    engine: options.engine ?? "sim-engine",
    runtime: "process",
    port: options.port,
    health: { path: "/health", timeoutS: 60, intervalMs: 25, ...options.health },
    baseline,
    ...(candidate ? { candidate } : {}),
    bench: { prompts: first, maxTokens: 16, requestIntervalMs: 10, contextLimit: 4096, tolerance: 0.9, runs: 1, ...options.bench },
    gate: { minRoundScore: 1, ...options.gate },
    docker: { stopTimeoutS: 2 },
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    ...options.extra,
  };
  const configPath = join(dir, options.fileName ?? "round.yml");
  await writeFile(configPath, stringify(config));
  return configPath;
}
