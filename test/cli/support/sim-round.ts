import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { main } from "../../../src/cli/main.js";
import { createRecordingLogger } from "../../../src/logger.js";
import { readScorecard } from "../../../src/scorecard/read-scorecard.js";
import { getFreePort } from "../../support/get-free-port.js";
import { makeTempDir } from "../../support/make-temp-dir.js";

export const PROMPT_IDS = ["p1", "p2", "p3", "p4", "p5", "p6"];

/** Stands for the round's prompts file in engine commands; writeSimRound puts in its absolute path. */
const PROMPTS_FILE = "<round prompts file>";

/**
 * Fast, deterministic reference-engine settings shared by both engines unless a test adds faults.
 * The engine finds which prompt a request is (for per-prompt faults) from its content, through the
 * round's prompts file.
 */
export const SIM_FLAGS = ["--ttft-ms", "5", "--itl-ms", "1", "--output-tokens", "20", "--prompts", PROMPTS_FILE];

export function simCommand(...flags: string[]): string[] {
  return ["{node}", "{speedgate}", "sim-engine", "--port", "{port}", ...SIM_FLAGS, ...flags];
}

/** A simCommand for the round in `dir`: its prompts file named where the command holds its place. */
export function withPromptsFile(command: string[], dir: string): string[] {
  return command.map((arg) => (arg === PROMPTS_FILE ? join(dir, "prompts.jsonl") : arg));
}

/** Writes a round config (JSON is YAML) and its prompts into a fresh folder; returns the config path. */
export async function writeSimRound(options: {
  baseline?: string[];
  candidate?: string[];
  health?: { timeoutS?: number };
  candidateExtra?: Record<string, unknown>;
  /** The baseline's environment from the config (the candidate's adds to it). */
  env?: Record<string, string>;
  benchExtra?: Record<string, unknown>;
  gateExtra?: Record<string, unknown>;
  minRoundScore?: number;
  /** Prompt ids, PROMPT_IDS by default. */
  promptIds?: readonly string[];
}): Promise<{ dir: string; configPath: string }> {
  const dir = await makeTempDir("speedgate-run-test-");
  await writeFile(
    join(dir, "prompts.jsonl"),
    (options.promptIds ?? PROMPT_IDS).map((id) => JSON.stringify({ id, messages: [{ role: "user", content: `prompt ${id}` }] })).join("\n"),
  );
  const withPrompts = (command: string[]): string[] => withPromptsFile(command, dir);
  const config = {
    engine: "sim-engine",
    runtime: "process",
    port: await getFreePort(),
    health: { path: "/health", timeoutS: options.health?.timeoutS ?? 60, intervalMs: 25 },
    baseline: { command: withPrompts(options.baseline ?? simCommand()), ...(options.env ? { env: options.env } : {}) },
    candidate: { command: withPrompts(options.candidate ?? simCommand()), ...options.candidateExtra },
    bench: {
      prompts: "prompts.jsonl",
      maxTokens: 64,
      requestIntervalMs: 20,
      contextLimit: 4096,
      tolerance: 0.9,
      runs: 1,
      ...options.benchExtra,
    },
    gate: { minRoundScore: options.minRoundScore ?? 0.5, ...options.gateExtra },
    docker: { stopTimeoutS: 2 },
  };
  const configPath = join(dir, "round.yml");
  await writeFile(configPath, JSON.stringify(config, null, 2));
  return { dir, configPath };
}

/** Runs `speedgate <args>` in this process and returns its exit code, stdout and the card it wrote. */
export async function runCli(args: string[], signal?: AbortSignal) {
  let stdout = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      stdout += chunk.toString("utf8");
      callback();
    },
  });
  const logger = createRecordingLogger();
  const code = await main(args, { stdout: sink, logger, ...(signal ? { signal } : {}) });
  return { code, stdout, logger };
}

export async function runSimRound(configPath: string, dir: string, extraArgs: string[] = []) {
  const out = join(dir, "out");
  const result = await runCli(["run", "--config", configPath, "--out", out, ...extraArgs]);
  const card = result.code === 2 ? null : await readScorecard(join(out, "scorecard.json"));
  return { ...result, card, out };
}
