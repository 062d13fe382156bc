import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTokenCounter } from "../../src/tokens/create-token-counter.js";
import { parseTokenizer } from "../../src/tokens/parse-tokenizer.js";
import { tokenRun } from "../../src/sim-engine/token-text.js";
import { TEST_TOKENIZER_PATH, buildTestTokenizer } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";

const bytes = readFileSync(TEST_TOKENIZER_PATH);
const counter = parseTokenizer(bytes, TEST_TOKENIZER_PATH);

/** A tiny word-level tokenizer: whitespace is not in its tokens, so its decode differs from the text. */
const wordLevel = createTokenCounter(
  {
    version: "1.0",
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: { type: "Whitespace" },
    post_processor: null,
    decoder: null,
    model: { type: "WordLevel", vocab: { "[UNK]": 0, hello: 1, world: 2, ",": 3, again: 4 }, unk_token: "[UNK]" },
  },
  { sha256: "x", source: "word-level" },
);

describe("the test tokenizer fixture", () => {
  it("is what the generator writes, so it can be rebuilt and reviewed", () => {
    expect(JSON.parse(bytes.toString("utf8"))).toEqual(buildTestTokenizer());
  });

  it("makes one token of each word the reference engine streams, multi-byte characters included", () => {
    const text = tokenRun("content", 0, 24) + tokenRun("reasoning", 0, 12);
    expect(counter.count(text).ids).toHaveLength(36);
  });
});

describe("createTokenCounter", () => {
  it("ends each token where its text ends (byte-level BPE)", () => {
    const text = " The engine answers é";
    const counted = counter.count(text);
    expect(Array.from(counted.ends)).toEqual([4, 11, 19, 21]);
  });

  it("ends a token that splits a character at the end of that character", () => {
    // "🙂" (4 bytes, 2 UTF-16 units) has no merge on its own without the leading space: 4 byte tokens.
    const counted = counter.count("🙂");
    expect(counted.ids).toHaveLength(4);
    expect(Array.from(counted.ends)).toEqual([2, 2, 2, 2]);
  });

  it("counts text it has no merges for byte by byte, and special tokens as one", () => {
    expect(counter.count("t0 ").ids).toHaveLength(3);
    expect(counter.count("x<|endoftext|>").ids).toHaveLength(2);
  });

  it("finds token ends by decoding for a tokenizer that drops whitespace", () => {
    const text = "hello  world, again";
    const counted = wordLevel.count(text);
    expect(Array.from(counted.ids)).toEqual([1, 2, 3, 4]);
    expect(Array.from(counted.ends)).toEqual([5, 12, 13, 19]);
  });

  it("counts nothing in an empty text", () => {
    expect(counter.count("").ids).toHaveLength(0);
  });
});

describe("parseTokenizer", () => {
  it("records the file's sha256", () => {
    expect(counter.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["not JSON", Buffer.from("{"), /bench\.tokenizer: t\.json: expected a Hugging Face tokenizer\.json, but it is not JSON/],
    [
      "JSON without a model",
      Buffer.from('{"version":"1.0"}'),
      /bench\.tokenizer: t\.json: expected a Hugging Face tokenizer\.json with a "model" object/,
    ],
    [
      "a model the library cannot load",
      Buffer.from('{"model":{"type":"Nope"}}'),
      /bench\.tokenizer: t\.json: the tokenizer could not be loaded/,
    ],
  ])("refuses %s with a message naming bench.tokenizer", (_name, input, message) => {
    expect(() => parseTokenizer(input, "t.json")).toThrow(message);
  });
});
