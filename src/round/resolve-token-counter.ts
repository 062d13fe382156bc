import type { LoadedRound } from "../config/load-round-config.js";
import { tokenizerLocation } from "../config/tokenizer-location.js";
import type { EngineRuntime } from "../engine/engine-runtime.js";
import { MAX_TOKENIZER_BYTES, parseTokenizer } from "../tokens/parse-tokenizer.js";
import { readTokenizerFile } from "../tokens/read-tokenizer-file.js";
import type { TokenCounter } from "../tokens/token-counter.js";

/**
 * The round's tokenizer, loaded once: the one loadRound already read from the runner, else read now
 * from the runner or from inside the baseline image (after the image is prepared, before any engine
 * serves). Null without bench.tokenizer: the engines' own counts are used, bounded.
 */
export interface TokenCounterSource {
  get(signal: AbortSignal): Promise<TokenCounter | null>;
  /** The counter once loaded; null before, or without bench.tokenizer. */
  loaded(): TokenCounter | null;
}

export function createTokenCounterSource(round: LoadedRound, runtime: EngineRuntime): TokenCounterSource {
  let loading: Promise<TokenCounter | null> | null = null;
  let counter: TokenCounter | null = round.tokenCounter ?? null;
  const load = async (signal: AbortSignal): Promise<TokenCounter | null> => {
    if (round.tokenCounter !== undefined) return round.tokenCounter;
    const location = tokenizerLocation(round.config);
    if (!location) return null;
    if (location.from === "runner") return await readTokenizerFile(location.path);
    if (!runtime.readBaselineFile)
      throw new Error(`bench.tokenizer: the ${runtime.name} runtime cannot read files from an image; use { path, from: runner }`);
    const what = `bench.tokenizer: ${location.path}`;
    const bytes = await runtime.readBaselineFile(location.path, { maxBytes: MAX_TOKENIZER_BYTES, what }, signal);
    return parseTokenizer(bytes, `${location.path} in the baseline image`);
  };
  return {
    get(signal) {
      loading ??= load(signal).then((loadedCounter) => (counter = loadedCounter));
      // A failed load (a cancelled read) may be retried by a later caller.
      loading.catch(() => (loading = null));
      return loading;
    },
    loaded: () => counter,
  };
}
