import { type SimRoundOptions, simEngineCommand, writeSimRound } from "../../harness/sim-engine/write-sim-round.js";
import { getFreePort } from "./get-free-port.js";

/**
 * The reference engine's profile.json as an engine repository's code: its first token after `ttftMs`, a
 * token every `itlMs` after it, `outputTokens` of them, so that a commit changing it changes the speed.
 */
export function engineProfile(ttftMs: number, itlMs = 1, outputTokens = 12): string {
  const defaults = { ttftMs, itlMs, outputTokens, reasoningTokens: 0, tokensPerChunk: 1 };
  return `${JSON.stringify({ model: "sim-model", defaults }, null, 2)}\n`;
}

/** `count` prompts "p1".."pN". */
export function commitsRoundPrompts(count: number): Array<{ id: string; prompt: string }> {
  return Array.from({ length: count }, (_, index) => ({ id: `p${index + 1}`, prompt: `prompt p${index + 1}` }));
}

/**
 * A base/head round on the reference engine in `dir` (writeSimRound with these defaults): each engine runs
 * from its commit's engine/ folder, reading the profile.json there, on a port free now; one prompt is
 * enough for the gate and its bar is 0.5. A config of its own name each call, so a test can write several.
 */
export async function writeCommitsRound(dir: string, options: Partial<SimRoundOptions> = {}): Promise<string> {
  return await writeSimRound(dir, {
    port: await getFreePort(),
    prompts: { "prompts.jsonl": commitsRoundPrompts(6) },
    fileName: `round-${Math.random().toString(36).slice(2)}.yml`,
    ...options,
    baseline: { command: simEngineCommand("--profile", "profile.json"), cwd: "engine", ...options.baseline },
    bench: { model: "sim-model", ...options.bench },
    gate: { minRoundScore: 0.5, minPrompts: 1, ...options.gate },
  });
}
