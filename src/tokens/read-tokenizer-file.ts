import { readFile, stat } from "node:fs/promises";
import { ConfigError } from "../vocabulary/config-error.js";
import { MAX_TOKENIZER_BYTES, parseTokenizer } from "./parse-tokenizer.js";
import type { TokenCounter } from "./token-counter.js";

/** bench.tokenizer from a file on the runner. */
export async function readTokenizerFile(path: string): Promise<TokenCounter> {
  let bytes: Buffer;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new ConfigError(`bench.tokenizer: ${path}: expected a tokenizer.json file, got a folder or something else`);
    if (info.size > MAX_TOKENIZER_BYTES) {
      throw new ConfigError(
        `bench.tokenizer: ${path}: expected a tokenizer.json of at most ${MAX_TOKENIZER_BYTES / 2 ** 20} MiB, got ` +
          `${(info.size / 2 ** 20).toFixed(1)} MiB`,
      );
    }
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      `bench.tokenizer: expected a readable tokenizer.json on the runner, could not read ${path} ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return parseTokenizer(bytes, path);
}
