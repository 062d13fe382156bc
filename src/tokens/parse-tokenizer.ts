import { ConfigError } from "../vocabulary/config-error.js";
import { createTokenCounter, sha256Hex } from "./create-token-counter.js";
import type { TokenCounter } from "./token-counter.js";

/** Larger than any real tokenizer.json (Gemma 3's is 33 MB), small enough to hold in memory. */
export const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;

/**
 * A tokenizer.json's bytes as a TokenCounter. Every problem is a ConfigError naming
 * `bench.tokenizer` and where the file came from, and is found before any engine starts serving.
 */
export function parseTokenizer(bytes: Uint8Array, source: string): TokenCounter {
  const where = `bench.tokenizer: ${source}`;
  if (bytes.length > MAX_TOKENIZER_BYTES) {
    throw new ConfigError(
      `${where}: expected a tokenizer.json of at most ${MAX_TOKENIZER_BYTES / 2 ** 20} MiB, got ${(bytes.length / 2 ** 20).toFixed(1)} MiB`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (error) {
    throw new ConfigError(`${where}: expected a Hugging Face tokenizer.json, but it is not JSON (${(error as Error).message})`);
  }
  if (
    !json ||
    typeof json !== "object" ||
    Array.isArray(json) ||
    !("model" in json) ||
    typeof json.model !== "object" ||
    json.model === null
  ) {
    throw new ConfigError(
      `${where}: expected a Hugging Face tokenizer.json with a "model" object (the file next to the model's weights), got something else`,
    );
  }
  let counter: TokenCounter;
  try {
    counter = createTokenCounter(json, { sha256: sha256Hex(bytes), source });
    // A tokenizer that loads but cannot encode fails here, not halfway through the card.
    counter.count("speedgate checks the tokenizer: é 中 🙂");
  } catch (error) {
    throw new ConfigError(`${where}: the tokenizer could not be loaded (${(error as Error).message})`);
  }
  return counter;
}
