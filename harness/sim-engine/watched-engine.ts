import type { Prompt } from "../../src/prompts/prompt.js";
import { simEngineCommand, writeSimRound } from "./write-sim-round.js";

/*
 * The reference engine as an engine repository's code for watching main: engine/profile.json sets each
 * prompt's speed, and engine/prompts.jsonl tells the engine which prompt a request is (by its content),
 * so a merge can make one scenario slower and leave the other as it was. Levels are speeds against
 * the first commit: decode 0.92 makes every decode answer take 1/0.92 as long, first token included,
 * so a round of that commit against the first scores decode 0.92×.
 */

const DECODE = Array.from({ length: 8 }, (_, index) => ({ id: `d${index + 1}`, prompt: `decode prompt number ${index + 1}` }));
const CHAT = Array.from({ length: 8 }, (_, index) => ({ id: `c${index + 1}`, prompt: `chat prompt number ${index + 1}` }));

export const WATCH_PROMPTS: Readonly<Record<"decode" | "chat", readonly Prompt[]>> = { decode: DECODE, chat: CHAT };

/**
 * The first token and the gap between tokens at level 1, and the answer's length: about a second an
 * answer (100 + 47 × 20 ms). The engine paces every token against its schedule from the request's
 * arrival (stream-answer.ts), so a late timer never accumulates; what a loaded machine adds is one
 * stall of the engine or the client (tens of milliseconds, up to about 100 beside CPU-bound work) at
 * the request's arrival or its last token, the same whatever the answer's length. On a third of a
 * second (40 + 23 × 12 ms), with all eight prompts in flight together and ending within 80 ms, one
 * such stall landed on every prompt of a run: run scores of one engine against itself from 0.77 to
 * 1.24 beside two CPU-bound processes. At a second an answer and REQUEST_INTERVAL_MS between
 * arrivals, a stall is a few percent of one or two prompts: run scores 0.95 to 1.05, most within 1%
 * (docs/watching-main.md, "the reference engine's spread").
 */
const TIMING = { ttftMs: 100, itlMs: 20, outputTokens: 48 };

/** Between two requests' arrivals: longer than a stall, so no two prompts' ends share one. */
const REQUEST_INTERVAL_MS = 120;

/** The engine's files at these levels (1: the first commit's speed). */
export function watchedEngineFiles(levels: { decode: number; chat: number }): Record<string, string> {
  const timing = (level: number) => ({ ttftMs: TIMING.ttftMs / level, itlMs: TIMING.itlMs / level });
  const prompts: Record<string, { ttftMs: number; itlMs: number }> = {};
  for (const prompt of DECODE) prompts[prompt.id] = timing(levels.decode);
  for (const prompt of CHAT) prompts[prompt.id] = timing(levels.chat);
  const profile = {
    model: "sim-model",
    promptsFile: "prompts.jsonl",
    defaults: { ...TIMING, reasoningTokens: 0, tokensPerChunk: 1 },
    prompts,
  };
  return {
    "engine/profile.json": `${JSON.stringify(profile, null, 2)}\n`,
    "engine/prompts.jsonl": `${[...DECODE, ...CHAT].map((prompt) => JSON.stringify(prompt)).join("\n")}\n`,
  };
}

/**
 * The watch's round config in `dir`: two scenarios (decode, chat) on the engine of each commit's
 * engine/ folder, three runs (unless `runs` says), and the watch section given. A fresh port every time: the caller passes one.
 */
export async function writeWatchRound(
  dir: string,
  options: { port: number; watch?: Record<string, unknown>; runs?: number; fileName?: string },
): Promise<string> {
  return await writeSimRound(dir, {
    port: options.port,
    prompts: { "decode.jsonl": DECODE, "chat.jsonl": CHAT },
    fileName: options.fileName ?? "round.yml",
    baseline: { command: simEngineCommand("--profile", "profile.json"), cwd: "engine" },
    health: { intervalMs: 50 },
    bench: {
      prompts: undefined,
      model: "sim-model",
      maxTokens: 64,
      requestIntervalMs: REQUEST_INTERVAL_MS,
      warmupRequests: 0,
      runs: options.runs ?? 3,
    },
    gate: { minRoundScore: 0.5, minPrompts: 1 },
    scenarios: [
      { name: "decode", prompts: "decode.jsonl" },
      { name: "chat", prompts: "chat.jsonl" },
    ],
    extra: options.watch ? { watch: options.watch } : {},
  });
}
