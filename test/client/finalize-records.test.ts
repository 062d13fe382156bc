import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { boundClaimsByBytes, countWithTokenizer, finalizeRecords } from "../../src/client/finalize-records.js";
import { failedRequest } from "../../harness/make-records.js";
import { parseTokenizer } from "../../src/tokens/parse-tokenizer.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { textStream } from "../support/make-text-records.js";

const counter = parseTokenizer(readFileSync(TEST_TOKENIZER_PATH), "test tokenizer");

describe("countWithTokenizer", () => {
  it("counts at each chunk the tokens whose text it completed, keeping the engine's claim", () => {
    // " engine" arrives split over two chunks: it is complete only with the second.
    const record = textStream([" The", " eng", "ine", " fast."], { claims: [1, 2, 3, 40] });
    countWithTokenizer(record, counter);
    expect(record.chunks.map((chunk) => chunk.tokens)).toEqual([1, 1, 2, 4]);
    expect([record.outputTokens, record.claimedTokens, record.countedBy]).toEqual([4, 40, "tokenizer"]);
    expect(Array.from(record.tokenIds?.content ?? [])).toHaveLength(4);
  });

  it("counts reasoning and content apart, each in its own text", () => {
    const record = textStream([" The", " engine"], { reasoning: [" Let", " me think"] });
    countWithTokenizer(record, counter);
    expect(record.chunks.map((chunk) => chunk.tokens)).toEqual([1, 3, 4, 5]);
    expect(record.tokenIds?.reasoning).toHaveLength(3);
  });

  it("ends a token split inside a character with the chunk that completes the character", () => {
    // A chunk can only end between characters; "🙂" is four byte tokens, all complete with it.
    const record = textStream([" The", "🙂", " fast"]);
    countWithTokenizer(record, counter);
    expect(record.chunks.map((chunk) => chunk.tokens)).toEqual([1, 5, 6]);
  });
});

describe("boundClaimsByBytes", () => {
  it("accepts claims within the bytes streamed plus the unstreamed slack", () => {
    const record = textStream([" a", " b"], { claims: [3, 12] });
    boundClaimsByBytes(record);
    expect(record.implausible).toBeNull();
  });

  it("flags a chunk claiming more tokens than its bytes, saying where", () => {
    const record = textStream(["t0 ", " b"], { claims: [24, 24] });
    boundClaimsByBytes(record);
    expect(record.implausible).toBe(
      "claimed 24 tokens by chunk 1 of 2, which had streamed 3 bytes of text (a token is at least one byte; at most 11 with 8 unstreamed)",
    );
  });

  it("flags a final usage beyond the whole stream's bytes", () => {
    const record = textStream([" a"], { claims: [1] });
    record.claimedTokens = 50;
    boundClaimsByBytes(record);
    expect(record.implausible).toMatch(/^claimed 50 tokens but streamed 2 bytes of text/);
  });

  it("counts multi-byte characters by their UTF-8 bytes", () => {
    const record = textStream(["中中中"], { claims: [17] });
    boundClaimsByBytes(record);
    expect(record.implausible).toBeNull();
  });
});

describe("finalizeRecords", () => {
  it("counts completed records with the tokenizer and leaves failed ones as they are", () => {
    const done = textStream([" The"], { claims: [9] });
    const failed = failedRequest("HTTP 500");
    finalizeRecords([done, failed], counter);
    expect(done.outputTokens).toBe(1);
    expect(failed).toEqual(failedRequest("HTTP 500"));
  });

  it("bounds claims without a tokenizer", () => {
    const done = textStream(["x"], { claims: [90] });
    finalizeRecords([done], null);
    expect(done.implausible).toMatch(/^claimed 90 tokens/);
    expect(done.countedBy).toBe("engine");
  });
});
