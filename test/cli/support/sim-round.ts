import { join } from "node:path";
import { Writable } from "node:stream";
import { main } from "../../../src/cli/main.js";
import { createRecordingLogger } from "../../../src/logger.js";
import { readScorecard } from "../../../src/scorecard/read-scorecard.js";
import { PROMPTS_FILE, type SimRoundOptions, simEngineCommand, writeSimRound } from "../../../harness/sim-engine/write-sim-round.js";
import { getFreePort } from "../../support/get-free-port.js";
import { makeTempDir } from "../../support/make-temp-dir.js";

export const PROMPT_IDS = ["p1", "p2", "p3", "p4", "p5", "p6"];

/**
 * Fast, deterministic reference-engine settings shared by both engines unless a test adds faults.
 * The engine finds which prompt a request is (for per-prompt faults) from its content, through the
 * round's prompts file.
 */
export const SIM_FLAGS = ["--ttft-ms", "5", "--itl-ms", "1", "--output-tokens", "20", "--prompts", PROMPTS_FILE];

/** The fast reference engine, with `flags` after SIM_FLAGS (a fault, a speed). */
export function simCommand(...flags: string[]): string[] {
  return simEngineCommand(...SIM_FLAGS, ...flags);
}

/** What a round of these tests changes from writeCliRound's; each engine's fields go over its command. */
export interface CliRoundOptions extends Omit<SimRoundOptions, "port" | "prompts"> {
  /** The folder to write in: a fresh one unless given. */
  dir?: string;
  /** Prompt ids, PROMPT_IDS by default: chat prompts "prompt <id>". */
  promptIds?: readonly string[];
}

/**
 * A round for `speedgate run` in a fresh folder (the one writer, writeSimRound, with these tests'
 * defaults): both engines the fast reference engine on a free port, PROMPT_IDS, answers of up to 64
 * tokens a request every 20 ms, a bar of 0.5.
 */
export async function writeCliRound(options: CliRoundOptions = {}): Promise<{ dir: string; configPath: string }> {
  const { dir = await makeTempDir("speedgate-run-test-"), promptIds = PROMPT_IDS, ...round } = options;
  const prompts = promptIds.map((id) => ({ id, messages: [{ role: "user", content: `prompt ${id}` }] }));
  const configPath = await writeSimRound(dir, {
    ...round,
    port: await getFreePort(),
    prompts: { "prompts.jsonl": prompts },
    baseline: { command: simCommand(), ...options.baseline },
    candidate: { command: simCommand(), ...options.candidate },
    bench: { maxTokens: 64, requestIntervalMs: 20, ...options.bench },
    gate: { minRoundScore: 0.5, ...options.gate },
  });
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
