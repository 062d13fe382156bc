import { describe, expect, it } from "vitest";
import { CompletionStreamState } from "../../src/client/completion-stream-state.js";
import { SseParser } from "../../src/client/sse-parser.js";
import { SGLANG_CHAT_STREAM } from "./fixtures/sglang-chat-stream.js";

interface Parsed {
  events: Array<[string, string]>;
  chunks: Array<{ tMs: number; tokens: number }>;
  settled: { outputTokens: number; tokensEstimated: boolean };
  finishReason: string | null;
  promptTokens: number | null;
  done: boolean;
  leftover: boolean;
}

function parsePackets(packets: Uint8Array[]): Parsed {
  const events: Array<[string, string]> = [];
  const state = new CompletionStreamState();
  const parser = new SseParser((data, event) => {
    events.push([event, data]);
    state.accept(data, 0);
  });
  for (const packet of packets) parser.feed(packet);
  const leftover = parser.end();
  const settled = state.settle();
  return {
    events,
    chunks: state.chunks,
    settled,
    finishReason: state.finishReason,
    promptTokens: state.promptTokens,
    done: state.done,
    leftover,
  };
}

const bytes = new TextEncoder().encode(SGLANG_CHAT_STREAM);

describe("SseParser on a recorded SGLang stream", () => {
  const whole = parsePackets([bytes]);

  it("reads every event of the stream, joins multi-line data and skips comments", () => {
    expect(whole.events).toHaveLength(11);
    expect(whole.events.every(([event]) => event === "message")).toBe(true);
    expect(whole.events.at(-1)).toEqual(["message", "[DONE]"]);
    expect(whole.events.some(([, data]) => data.includes("keep-alive"))).toBe(false);
    expect(whole.events[7]?.[1]).toContain('\n"delta":{"role":null,"content":" 🙂 done"');
    expect(whole.leftover).toBe(false);
  });

  it("counts reasoning and content deltas and spreads them to the usage total", () => {
    // 6 non-empty deltas (3 reasoning, 3 content), usage says 12: counts are doubled.
    expect(whole.chunks.map((chunk) => chunk.tokens)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(whole.settled).toEqual({ outputTokens: 12, tokensEstimated: true });
    expect(whole.finishReason).toBe("stop");
    expect(whole.promptTokens).toBe(18);
    expect(whole.done).toBe(true);
  });

  it("gives identical records when the stream is split into two packets at every byte", () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const split = parsePackets([bytes.subarray(0, cut), bytes.subarray(cut)]);
      if (JSON.stringify(split) !== JSON.stringify(whole)) {
        expect.fail(`split at byte ${cut} of ${bytes.length} parsed differently: ${JSON.stringify(split.events.slice(0, 3))}`);
      }
    }
  });

  it("gives identical records when every byte arrives alone", () => {
    const packets = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(parsePackets(packets)).toEqual(whole);
  });

  it("does not depend on the caller keeping its buffer", () => {
    const events: string[] = [];
    const parser = new SseParser((data) => events.push(data));
    const buffer = new TextEncoder().encode("data: caf\u00e9");
    const first = buffer.slice(0, 10); // ends inside "é"
    parser.feed(first);
    first.fill(0x78);
    parser.feed(buffer.subarray(10));
    parser.feed(new TextEncoder().encode("\n\n"));
    expect(events).toEqual(["caf\u00e9"]);
  });
});

describe("SseParser details", () => {
  function parseText(text: string): { events: Array<[string, string]>; leftover: boolean } {
    const events: Array<[string, string]> = [];
    const parser = new SseParser((data, event) => events.push([event, data]));
    parser.feed(new TextEncoder().encode(text));
    return { events, leftover: parser.end() };
  }

  it("ends lines at CR, LF and CRLF, even when CRLF straddles two packets", () => {
    const events: string[] = [];
    const parser = new SseParser((data) => events.push(data));
    parser.feed(new TextEncoder().encode("data: a\r"));
    parser.feed(new TextEncoder().encode("\n\r\ndata: b\r\rdata: c\n\n"));
    expect(events).toEqual(["a", "b", "c"]);
  });

  it("passes the event name, drops one leading space only, and strips a BOM", () => {
    expect(parseText("\uFEFFevent: error\ndata:  two spaces\n\n").events).toEqual([["error", " two spaces"]]);
    expect(parseText("data:x\n\n").events).toEqual([["message", "x"]]);
  });

  it("does not dispatch an event cut off by the end of the stream, and says so", () => {
    expect(parseText('data: {"a":1}\n')).toEqual({ events: [], leftover: true });
    expect(parseText('data: {"a":1}\n\n')).toEqual({ events: [["message", '{"a":1}']], leftover: false });
  });

  it("ignores blank-line runs and comment-only events", () => {
    expect(parseText("\n\n: hello\n\n\n").events).toEqual([]);
  });
});
