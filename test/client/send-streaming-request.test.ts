import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RequestSettings, sendStreamingRequest } from "../../src/client/send-streaming-request.js";
import type { Prompt } from "../../src/prompts/prompt.js";
import type { CompletedRequest, FailedRequest, RequestRecord } from "../../src/scoring/request-record.js";
import { getFreePort } from "../support/get-free-port.js";
import { type ScriptedServer, startScriptedServer } from "./start-scripted-server.js";
import { useSimEngines } from "./support/use-sim-engines.js";

const settings: RequestSettings = { model: "sim-model", maxTokens: 1000, thinking: true, requestTimeoutS: 30 };
const chat = (id: string): Prompt => ({ id, messages: [{ role: "user", content: `question ${id}` }] });

function expectCompleted(record: RequestRecord): CompletedRequest {
  if (!record.ok) expect.fail(`expected a completed request, got ${record.kind}: ${record.reason}`);
  return record;
}

function expectFailed(record: RequestRecord): FailedRequest {
  if (record.ok) expect.fail(`expected a failed request, got ${JSON.stringify(record)}`);
  return record;
}

function isMonotone(record: CompletedRequest): boolean {
  return record.chunks.every(
    (chunk, index) =>
      index === 0 || (chunk.tokens >= (record.chunks[index - 1]?.tokens ?? 0) && chunk.tMs >= (record.chunks[index - 1]?.tMs ?? 0)),
  );
}

describe("sendStreamingRequest against the sim-engine", () => {
  // The engines find a prompt's profile entry by its content: requests do not name their prompt.
  const start = useSimEngines({ prompts: ["a", "short", "bad"].map(chat) });

  it("counts reasoning_content and content deltas, one token each, confirmed by usage", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 7, reasoningTokens: 5 } });
    const record = expectCompleted(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("a"), settings }));
    expect(record.outputTokens).toBe(12);
    expect(record.chunks.map((chunk) => chunk.tokens)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(record.tokensEstimated).toBe(false);
    expect(record.finishReason).toBe("stop");
    expect(record.promptTokens).toBeGreaterThan(0);
    expect(record.endMs).toBeGreaterThanOrEqual(record.chunks.at(-1)?.tMs ?? 0);
    expect(engine.writeLog.requests[0]?.promptId).toBe("a");
    // The text itself is kept for speedgate's own count and the answer comparison.
    expect(record.text?.reasoning).toBe(" Let me think ü 思");
    expect(record.text?.content).toBe(" The engine answers é 中 🙂 fast");
    expect(record.text?.reasoningEnds.slice(0, 2)).toEqual([4, 7]);
    expect(record.claimedTokens).toBe(12);
  });

  it("counts vLLM's reasoning deltas", async () => {
    const engine = await start({ flavour: "vllm", defaults: { ttftMs: 1, itlMs: 0, outputTokens: 3, reasoningTokens: 4 } });
    const record = expectCompleted(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("a"), settings }));
    expect(record.outputTokens).toBe(7);
    expect(record.chunks).toHaveLength(7);
  });

  it("skips reasoning when thinking is off, as the engines' chat templates do", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 3, reasoningTokens: 4 } });
    const record = expectCompleted(
      await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("a"), settings: { ...settings, thinking: false } }),
    );
    expect(record.outputTokens).toBe(3);
  });

  it("uses running usage when every chunk reports it", async () => {
    const engine = await start({ usagePerChunk: true, defaults: { ttftMs: 1, itlMs: 0, outputTokens: 10, tokensPerChunk: 3 } });
    const record = expectCompleted(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("a"), settings }));
    expect(record.chunks.map((chunk) => chunk.tokens)).toEqual([3, 6, 9, 10]);
    expect(record.tokensEstimated).toBe(false);
    expect(record.outputTokens).toBe(10);
  });

  it("spreads one-a-delta estimates to the usage total when chunks carry several tokens", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 10, tokensPerChunk: 3 } });
    const record = expectCompleted(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("a"), settings }));
    expect(record.tokensEstimated).toBe(true);
    expect(record.outputTokens).toBe(10);
    expect(record.chunks.map((chunk) => chunk.tokens)).toEqual([3, 5, 8, 10]);
    expect(isMonotone(record)).toBe(true);
  });

  it("caps the answer at max_tokens (the prompt's own limit first) with finish_reason length", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 50 } });
    const capped = expectCompleted(
      await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("a"), settings: { ...settings, maxTokens: 20 } }),
    );
    expect([capped.outputTokens, capped.finishReason]).toEqual([20, "length"]);
    const own = expectCompleted(
      await sendStreamingRequest({ baseUrl: engine.url, prompt: { ...chat("b"), maxTokens: 5 }, settings: { ...settings, maxTokens: 20 } }),
    );
    expect([own.outputTokens, own.finishReason]).toEqual([5, "length"]);
  });

  it("sends plain prompts to /v1/completions", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 4 } });
    const record = expectCompleted(await sendStreamingRequest({ baseUrl: engine.url, prompt: { id: "p", prompt: "Once upon" }, settings }));
    expect(record.outputTokens).toBe(4);
    expect(engine.writeLog.requests[0]?.path).toBe("/v1/completions");
  });

  it("records a stop-early prompt as a short completed answer", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 40 }, faults: { stopEarly: ["short"] } });
    const record = expectCompleted(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("short"), settings }));
    expect([record.outputTokens, record.finishReason]).toEqual([10, "stop"]);
  });

  it("turns HTTP 500 into an http_error naming the status and the body", async () => {
    const engine = await start({ faults: { http500: ["bad"] } });
    const record = expectFailed(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("bad"), settings }));
    expect(record.kind).toBe("http_error");
    expect(record.reason).toMatch(/^HTTP 500: .*Internal server error/);
  });

  it("turns malformed SSE into a stream_error that keeps what streamed before", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 10 }, faults: { malformedSse: ["bad"] } });
    const record = expectFailed(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("bad"), settings }));
    expect(record.kind).toBe("stream_error");
    expect(record.reason).toMatch(/malformed JSON/);
    expect(record.chunks).toHaveLength(5);
  });

  it("sees connections dropped when the engine dies after N requests", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 2 }, faults: { dieAfterRequests: 1 } });
    expectCompleted(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("a"), settings }));
    await new Promise((resolve) => setImmediate(resolve));
    const record = expectFailed(await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("b"), settings }));
    expect(record.kind).toBe("connection_error");
  });

  it("records an abort by the caller as engine_died with the abort's reason", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 20, outputTokens: 1000 } });
    const controller = new AbortController();
    const pending = sendStreamingRequest({ baseUrl: engine.url, prompt: chat("a"), settings, signal: controller.signal });
    while ((engine.writeLog.requests[0]?.chunkWritesMs.length ?? 0) < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("baseline engine exited with code 1"));
    const record = expectFailed(await pending);
    expect(record.kind).toBe("engine_died");
    expect(record.reason).toBe("baseline engine exited with code 1");
    const already = expectFailed(
      await sendStreamingRequest({ baseUrl: engine.url, prompt: chat("b"), settings, signal: controller.signal }),
    );
    expect(already.kind).toBe("engine_died");
  });
});

describe("sendStreamingRequest against misbehaving servers", () => {
  let server: ScriptedServer | null = null;
  let script: (res: ServerResponse) => void = () => undefined;
  beforeAll(async () => {
    server = await startScriptedServer((_req, res) => script(res));
  });
  afterAll(async () => {
    await server?.close();
  });
  const url = (): string => server?.url ?? "";
  const sse = (res: ServerResponse): void => {
    res.writeHead(200, { "content-type": "text/event-stream" });
  };
  const deltaEvent = (text: string, finish: string | null = null): string =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: finish }] })}\n\n`;
  const usageEvent = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } })}\n\n`;

  it("sends the OpenAI-compatible body and nothing that names the prompt", async () => {
    script = (res) => {
      sse(res);
      res.end(`${deltaEvent("x", "stop")}data: [DONE]\n\n`);
    };
    expectCompleted(await sendStreamingRequest({ baseUrl: url(), prompt: { ...chat("id/é"), maxTokens: 9 }, settings }));
    const request = server?.received.at(-1);
    expect(request?.path).toBe("/v1/chat/completions");
    // Exactly what a client of the engine sends: no header or field carries the prompt's id.
    expect(
      Object.keys(request?.headers ?? {}).filter(
        (name) => !["host", "connection", "content-length", "content-type", "accept"].includes(name),
      ),
    ).toEqual([]);
    expect(JSON.stringify(request?.headers)).not.toContain(encodeURIComponent("id/é"));
    expect(JSON.parse(request?.body ?? "{}")).toEqual({
      model: "sim-model",
      max_tokens: 9,
      max_completion_tokens: 9,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
      chat_template_kwargs: { enable_thinking: true },
      messages: [{ role: "user", content: "question id/é" }],
    });
  });

  it("completes at [DONE] even when the server keeps the response open", async () => {
    script = (res) => {
      sse(res);
      res.write(`${deltaEvent("a", "stop")}${usageEvent}data: [DONE]\n\n`);
    };
    const record = expectCompleted(
      await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings: { ...settings, requestTimeoutS: 5 } }),
    );
    // One delta, usage 2 and "stop": the second token is the end of sequence, which is never streamed.
    expect([record.outputTokens, record.claimedTokens, record.finishReason, record.tokensEstimated]).toEqual([1, 2, "stop", false]);
  });

  it("fails a stream that ends without [DONE] before a finish_reason", async () => {
    script = (res) => {
      sse(res);
      res.end(deltaEvent("a") + deltaEvent("b"));
    };
    const record = expectFailed(await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings }));
    expect(record.kind).toBe("stream_error");
    expect(record.reason).toMatch(/without data: \[DONE\], before a finish_reason/);
    expect(record.chunks).toHaveLength(2);
  });

  it("accepts a stream that lost only its [DONE] after the finish_reason and usage", async () => {
    script = (res) => {
      sse(res);
      res.end(deltaEvent("a") + deltaEvent("b", "stop") + usageEvent);
    };
    const record = expectCompleted(await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings }));
    expect([record.outputTokens, record.finishReason, record.tokensEstimated]).toEqual([2, "stop", false]);
  });

  it("fails a stream that ends after the finish_reason but before the usage", async () => {
    script = (res) => {
      sse(res);
      res.end(deltaEvent("a", "stop"));
    };
    const record = expectFailed(await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings }));
    expect(record.reason).toMatch(/after finish_reason "stop" but before the usage chunk/);
  });

  it("turns an error object inside the stream into a stream_error with its message", async () => {
    script = (res) => {
      sse(res);
      res.end(`${deltaEvent("a")}data: {"object":"error","message":"KV cache exhausted","type":"BadRequestError","code":400}\n\n`);
    };
    const sglang = expectFailed(await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings }));
    expect([sglang.kind, sglang.reason]).toEqual(["stream_error", "error event in the stream: KV cache exhausted"]);
    script = (res) => {
      sse(res);
      res.end(`data: {"error":{"message":"out of memory","code":500}}\n\n`);
    };
    const vllm = expectFailed(await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings }));
    expect(vllm.reason).toBe("error event in the stream: out of memory");
    script = (res) => {
      sse(res);
      res.end(`${deltaEvent("a")}event: error\ndata: upstream went away\n\n`);
    };
    const named = expectFailed(await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings }));
    expect([named.kind, named.reason, named.chunks?.length]).toEqual(["stream_error", "error event in the stream: upstream went away", 1]);
  });

  it("turns a connection reset mid-stream into a connection_error", async () => {
    script = (res) => {
      sse(res);
      res.write(deltaEvent("a"), () => setTimeout(() => res.socket?.destroy(), 20));
    };
    const record = expectFailed(await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings }));
    expect(record.kind).toBe("connection_error");
    expect(record.reason).toMatch(/after 1 chunks/);
    expect(record.chunks).toHaveLength(1);
  });

  it("turns a refused connection into a connection_error", async () => {
    const port = await getFreePort();
    const record = expectFailed(await sendStreamingRequest({ baseUrl: `http://127.0.0.1:${port}`, prompt: chat("a"), settings }));
    expect(record.kind).toBe("connection_error");
    expect(record.reason).toMatch(/ECONNREFUSED/);
  });

  it("times out a stream that never finishes", async () => {
    script = (res) => {
      sse(res);
      res.write(deltaEvent("a"));
    };
    const record = expectFailed(
      await sendStreamingRequest({ baseUrl: url(), prompt: chat("a"), settings: { ...settings, requestTimeoutS: 0.3 } }),
    );
    expect(record.kind).toBe("timeout");
    expect(record.reason).toMatch(/0.3 s/);
    expect(record.chunks).toHaveLength(1);
  });
});
