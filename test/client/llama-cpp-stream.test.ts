import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CompletionStreamState } from "../../src/client/completion-stream-state.js";
import { SseParser } from "../../src/client/sse-parser.js";

/** A chat completion stream as llama.cpp's server sent it (tiny-words.gguf, max_tokens 100, include_usage): 48 words, then it stopped. */
const stream = readFileSync(new URL("./fixtures/llama-cpp-chat-stream.sse", import.meta.url));

function parse(text: Uint8Array | string): CompletionStreamState {
  const state = new CompletionStreamState();
  const parser = new SseParser((data) => {
    state.accept(data, 0);
  });
  parser.feed(typeof text === "string" ? new TextEncoder().encode(text) : text);
  parser.end();
  return state;
}

describe("a llama.cpp server stream", () => {
  it("counts one token a delta as exact although usage counts the end-of-sequence token it never streamed", () => {
    const state = parse(stream);
    expect(state.finishReason).toBe("stop");
    expect(state.finalCompletionTokens).toBe(49);
    expect(state.chunks).toHaveLength(48);
    // Before, 49 spread over 48 chunks made every llama.cpp round "estimated".
    expect(state.settle()).toEqual({ outputTokens: 48, tokensEstimated: false });
  });

  it("keeps the engine's own prompt and decode times from its timings", () => {
    expect(parse(stream).engineTimes).toEqual({ promptMs: 2.494, promptTokens: 1, decodeMs: 414.914, decodeTokens: 49 });
  });

  it("still calls a count estimated when the extra token cannot be the end of sequence (cut at max_tokens) or more are missing", () => {
    const cut = stream.toString("utf8").replace('"finish_reason":"stop"', '"finish_reason":"length"');
    expect(parse(cut).settle()).toEqual({ outputTokens: 49, tokensEstimated: true });
    const two = stream.toString("utf8").replace('"completion_tokens":49', '"completion_tokens":50');
    expect(parse(two).settle()).toEqual({ outputTokens: 50, tokensEstimated: true });
  });

  it("ignores timings that are not numbers", () => {
    const bad = stream.toString("utf8").replace('"predicted_ms":414.914', '"predicted_ms":"fast"');
    expect(parse(bad).engineTimes).toBeNull();
  });
});
