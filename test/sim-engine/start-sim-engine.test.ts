import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planResponse, simProfileSchema } from "../../src/sim-engine/sim-profile.js";
import { type SimEngine, type SimEngineOptions, startSimEngine } from "../../src/sim-engine/start-sim-engine.js";

async function post(engine: SimEngine, path: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(`${engine.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const messages = [{ role: "user", content: "hello" }];

/** A streaming request written by hand, so the test sees the HTTP framing that fetch would hide. */
function rawStreamingRequest(version: "1.0" | "1.1"): string {
  const body = JSON.stringify({ messages, stream: true });
  return (
    `POST /v1/chat/completions HTTP/${version}\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ` +
    `${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** Splits a chunked body into its chunks, checking each size line against its data; null once the terminator is read. */
function decodeChunked(body: string): { chunks: string[]; rest: string } | null {
  const chunks: string[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", at);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(body.slice(at, lineEnd), 16);
    if (!Number.isFinite(size)) throw new Error(`not a chunk size: ${JSON.stringify(body.slice(at, lineEnd))}`);
    // The body was read as latin1, one character a byte, so sizes (in bytes) index it directly.
    const data = body.slice(lineEnd + 2, lineEnd + 2 + size);
    if (body.length < lineEnd + 2 + size + 2) return null;
    if (body.slice(lineEnd + 2 + size, lineEnd + 2 + size + 2) !== "\r\n") throw new Error("a chunk does not end with CRLF");
    at = lineEnd + 2 + size + 2;
    if (size === 0) return { chunks, rest: body.slice(at) };
    chunks.push(data);
  }
}

describe("startSimEngine", () => {
  const engines: SimEngine[] = [];
  const start = async (options: SimEngineOptions): Promise<SimEngine> => {
    const engine = await startSimEngine(options);
    engines.push(engine);
    return engine;
  };
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });

  it("streams SGLang-shaped SSE: role first, deltas, finish chunk, usage chunk, [DONE]", async () => {
    const engine = await start({ profile: { defaults: { ttftMs: 0, itlMs: 0, outputTokens: 2, reasoningTokens: 1 } } });
    const text = await (
      await post(engine, "/v1/chat/completions", { messages, stream: true, stream_options: { include_usage: true } })
    ).text();
    const events = text.split("\n\n").filter((event) => event.length > 0);
    expect(events.every((event) => event.startsWith("data: "))).toBe(true);
    const payloads = events.map((event) => event.slice(6));
    expect(payloads.at(-1)).toBe("[DONE]");
    const chunks = payloads.slice(0, -1).map(
      (payload) =>
        JSON.parse(payload) as {
          choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>;
          usage?: { completion_tokens: number };
        },
    );
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(chunks[1]?.choices[0]?.delta.reasoning_content).toBe(" Let");
    expect(chunks[2]?.choices[0]?.delta.content).toBe(" The");
    expect(chunks[3]?.choices[0]?.delta.content).toBe(" engine");
    expect(chunks[4]?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks[5]?.choices).toEqual([]);
    expect(chunks[5]?.usage?.completion_tokens).toBe(3);
    const withoutUsage = await (await post(engine, "/v1/chat/completions", { messages, stream: true })).text();
    expect(withoutUsage).not.toContain('"choices":[]');
  });

  it("frames every token event as one chunk of a valid chunked body, and keeps the connection for the next request", async () => {
    // Words of several bytes a character: a chunk's size counts bytes, not characters.
    const words = { content: [" 日本語", " é"], reasoning: [" ü"] };
    const engine = await start({ words, profile: { defaults: { ttftMs: 0, itlMs: 1, outputTokens: 3 } } });
    const socket = connect(Number(new URL(engine.url).port), "127.0.0.1");
    socket.setEncoding("latin1");
    let received = "";
    socket.on("data", (data: string) => (received += data));
    const answer = async (): Promise<string[]> => {
      received = "";
      socket.write(rawStreamingRequest("1.1"));
      for (;;) {
        const split = received.indexOf("\r\n\r\n");
        const decoded = split < 0 ? null : decodeChunked(received.slice(split + 4));
        if (decoded) {
          expect(received.slice(0, split)).toMatch(/transfer-encoding: chunked/i);
          expect(decoded.rest).toBe("");
          return decoded.chunks;
        }
        await once(socket, "data");
      }
    };
    try {
      for (const round of [1, 2]) {
        const chunks = await answer();
        const tokenChunks = chunks.filter((chunk) => chunk.includes('"content":" '));
        expect(tokenChunks, `request ${round}`).toHaveLength(3);
        // Each token's event is a chunk of its own, whole: the client can stamp it as it lands.
        for (const chunk of tokenChunks) expect(chunk).toMatch(/^data: \{.*\}\n\n$/);
        expect(chunks.join("")).toMatch(/data: \[DONE\]\n\n$/);
      }
    } finally {
      socket.destroy();
    }
  });

  it("streams the events unframed to an HTTP/1.0 client and ends the answer by closing", async () => {
    const engine = await start({ profile: { defaults: { ttftMs: 0, itlMs: 1, outputTokens: 3 } } });
    const socket = connect(Number(new URL(engine.url).port), "127.0.0.1");
    socket.setEncoding("latin1");
    let received = "";
    socket.on("data", (data: string) => (received += data));
    socket.write(rawStreamingRequest("1.0"));
    await once(socket, "close");
    const split = received.indexOf("\r\n\r\n");
    expect(split).toBeGreaterThan(0);
    const head = received.slice(0, split);
    const body = received.slice(split + 4);
    expect(head).not.toMatch(/transfer-encoding/i);
    const events = body.split("\n\n").filter((event) => event.length > 0);
    expect(events.every((event) => event.startsWith("data: "))).toBe(true);
    expect(events.filter((event) => event.includes('"content":" '))).toHaveLength(3);
    expect(events.at(-1)).toBe("data: [DONE]");
  });

  it("writes chunk k no earlier than ttft + k·itl after the request arrived, in order", async () => {
    const engine = await start({ profile: { defaults: { ttftMs: 15, itlMs: 4, outputTokens: 12, tokensPerChunk: 2 } } });
    await (await post(engine, "/v1/chat/completions", { messages, stream: true })).text();
    const record = engine.writeLog.requests[0];
    expect(record?.outcome).toBe("completed");
    const writes = record?.chunkWritesMs ?? [];
    expect(writes).toHaveLength(6);
    writes.forEach((at, index) => {
      // Chunk index carries tokens 2·index and 2·index+1; it is due when its last token is.
      expect(at - (record?.receivedAtMs ?? 0)).toBeGreaterThanOrEqual(15 + (2 * index + 1) * 4 - 0.001);
      if (index > 0) expect(at).toBeGreaterThanOrEqual(writes[index - 1] ?? 0);
    });
  });

  it("answers non-streamed requests with the whole message and usage", async () => {
    const engine = await start({ profile: { flavour: "vllm", defaults: { ttftMs: 0, itlMs: 0, outputTokens: 3, reasoningTokens: 2 } } });
    const body = (await (await post(engine, "/v1/chat/completions", { messages, max_tokens: 4 })).json()) as {
      choices: Array<{ message: { content: string; reasoning: string }; finish_reason: string }>;
      usage: { completion_tokens: number };
    };
    expect(body.choices[0]?.message).toMatchObject({ content: " The engine", reasoning: " Let me" });
    expect(body.choices[0]?.finish_reason).toBe("length");
    expect(body.usage.completion_tokens).toBe(4);
    const completion = (await (await post(engine, "/v1/completions", { prompt: "x" })).json()) as { choices: Array<{ text: string }> };
    // No chat template on /v1/completions: the reasoning tokens are plain text there.
    expect(completion.choices[0]?.text).toBe(" The engine answers é 中");
  });

  it("honours ignore_eos: the answer runs on to max_tokens, and without the flag ends where it would", async () => {
    const engine = await start({ profile: { defaults: { ttftMs: 0, itlMs: 0, outputTokens: 3 } } });
    const answer = async (extra: object) =>
      (await (await post(engine, "/v1/completions", { prompt: "x", max_tokens: 12, ...extra })).json()) as {
        choices: Array<{ finish_reason: string }>;
        usage: { completion_tokens: number };
      };
    const fixed = await answer({ ignore_eos: true });
    expect(fixed.usage.completion_tokens).toBe(12);
    expect(fixed.choices[0]?.finish_reason).toBe("length");
    const natural = await answer({});
    expect(natural.usage.completion_tokens).toBe(3);
    expect(natural.choices[0]?.finish_reason).toBe("stop");
    // Only a JSON true asks, as in the engines' request models.
    expect((await answer({ ignore_eos: "true" })).usage.completion_tokens).toBe(3);
  });

  it("appends one JSON line per finished request to the chunk log", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sim-chunk-log-"));
    try {
      const path = join(dir, "chunks.jsonl");
      const prompts = [{ id: "q1", messages }];
      const engine = await startSimEngine({
        chunkLogPath: path,
        keepRecords: false,
        prompts,
        profile: { defaults: { ttftMs: 0, itlMs: 0, outputTokens: 2 } },
      });
      await (await post(engine, "/v1/chat/completions", { messages, stream: true })).text();
      await engine.close();
      const lines = (await readFile(path, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { promptId: string; chunkWritesMs: number[]; outcome: string });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ promptId: "q1", outcome: "completed" });
      expect(lines[0]?.chunkWritesMs).toHaveLength(2);
      expect(engine.writeLog.requests).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("finds a prompt's profile entry by the request's content, for chat messages and plain prompts", async () => {
    const prompts = [
      { id: "u1", messages },
      { id: "u2", prompt: "Once upon" },
    ];
    const engine = await start({ prompts, profile: { faults: { http500: ["u1", "u2"] } } });
    expect((await post(engine, "/v1/chat/completions", { messages, stream: true })).status).toBe(500);
    expect((await post(engine, "/v1/completions", { prompt: "Once upon", stream: true })).status).toBe(500);
    const other = await post(engine, "/v1/chat/completions", { messages: [{ role: "user", content: "something else" }], stream: true });
    expect(other.status).toBe(200);
    await other.text();
    expect(engine.writeLog.requests.map((request) => request.promptId)).toEqual(["u1", "u2", null]);
  });

  it("serves a starved prompt after every other stream: its first token waits until the other answer's last is out", async () => {
    const starvedMessages = [{ role: "user", content: "starved" }];
    const engine = await start({
      prompts: [
        { id: "s1", messages: starvedMessages },
        { id: "o1", messages },
      ],
      profile: { batchCost: 0.3, defaults: { ttftMs: 20, itlMs: 20, outputTokens: 8 }, cheats: { starve: ["s1"] } },
    });
    // The other request first: once it streams, the starved one arrives while it decodes (alone, a starved stream decodes).
    const other = await post(engine, "/v1/chat/completions", { messages, stream: true });
    const starved = post(engine, "/v1/chat/completions", { messages: starvedMessages, stream: true });
    const [starvedText, otherText] = await Promise.all([starved.then((response) => response.text()), other.text()]);
    expect(starvedText).toContain("[DONE]");
    expect(otherText).toContain("[DONE]");
    const byPrompt = new Map(engine.writeLog.requests.map((request) => [request.promptId, request]));
    const starvedWrites = byPrompt.get("s1")?.chunkWritesMs ?? [];
    const otherWrites = byPrompt.get("o1")?.chunkWritesMs ?? [];
    expect(starvedWrites).toHaveLength(8);
    expect(otherWrites).toHaveLength(8);
    expect(starvedWrites[0]).toBeGreaterThanOrEqual(otherWrites.at(-1) ?? Number.POSITIVE_INFINITY);
  });

  it("ignores a header or field naming the prompt: only the content identifies it", async () => {
    const engine = await start({ prompts: [{ id: "u1", messages }], profile: { faults: { http500: ["u1"] } } });
    const named = await post(
      engine,
      "/v1/chat/completions",
      { messages: [{ role: "user", content: "other" }], stream: true, user: "u1" },
      { "x-speedgate-prompt-id": "u1" },
    );
    expect(named.status).toBe(200);
    await named.text();
    expect(engine.writeLog.requests[0]).toMatchObject({ promptId: null, promptIdHint: "x-speedgate-prompt-id: u1" });
  });

  it("answers 400 to a body that is not JSON, 404 to unknown routes, 503 while starting", async () => {
    const engine = await start({ profile: { faults: { startupDelayMs: 60_000 } } });
    expect((await fetch(`${engine.url}/health`)).status).toBe(503);
    expect((await post(engine, "/v1/chat/completions", { messages })).status).toBe(503);
    expect((await fetch(`${engine.url}/nope`)).status).toBe(404);
    const ready = await start({});
    await ready.healthy;
    const bad = await fetch(`${ready.url}/v1/chat/completions`, { method: "POST", body: "{nope" });
    expect(bad.status).toBe(400);
  });

  it(
    "holds every answer after the first N (holdAfterRequests): all its " + "tokens arrive, its end never does, until the engine goes",
    async () => {
      const engine = await start({ profile: { defaults: { ttftMs: 0, itlMs: 0, outputTokens: 3 }, faults: { holdAfterRequests: 1 } } });
      expect(await (await post(engine, "/v1/chat/completions", { messages, stream: true })).text()).toContain("data: [DONE]");
      const held = await post(engine, "/v1/chat/completions", { messages, stream: true });
      const reader = (held.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = "";
      // Read until the answer's three tokens are in (after the chat role's empty content): the hold starts only after the last one.
      while ((text.match(/"content":/g) ?? []).length < 4) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the held answer ended: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
      await engine.close();
      const rest = await reader.read().then(
        ({ value }) => (value ? decoder.decode(value) : ""),
        () => "",
      );
      expect(text + rest).not.toContain("[DONE]");
      expect(text + rest).not.toMatch(/"finish_reason":"(stop|length)"/);
    },
  );

  it("reports the death to onDie and drops the connections in process", async () => {
    let diedWith: number | null = null;
    const engine = await start({
      profile: { defaults: { ttftMs: 0, itlMs: 0, outputTokens: 1 }, faults: { dieAfterRequests: 1, dieExitCode: 9 } },
      onDie: (code) => (diedWith = code),
    });
    await (await post(engine, "/v1/chat/completions", { messages, stream: true })).text();
    await new Promise((resolve) => setImmediate(resolve));
    expect(diedWith).toBe(9);
    await expect(fetch(`${engine.url}/health`)).rejects.toThrow();
  });
});

describe("planResponse", () => {
  const profile = simProfileSchema.parse({
    defaults: { ttftMs: 10, itlMs: 2, outputTokens: 40, reasoningTokens: 20 },
    prompts: { fast: { itlMs: 1 } },
    faults: { stopEarly: ["short"], http500: ["boom"] },
  });

  it("counts reasoning toward max_tokens first", () => {
    expect(planResponse(profile, "a", 30, true)).toMatchObject({ reasoningTokens: 20, contentTokens: 10, finishReason: "length" });
    expect(planResponse(profile, "a", 10, true)).toMatchObject({ reasoningTokens: 10, contentTokens: 0, finishReason: "length" });
    expect(planResponse(profile, "a", 100, false)).toMatchObject({ reasoningTokens: 0, contentTokens: 40, finishReason: "stop" });
  });

  it("runs an answer on to max_tokens with ignoreEos, except where a stop-early fault ends it anyway", () => {
    expect(planResponse(profile, "a", 100, true, 1, 0, true)).toMatchObject({
      reasoningTokens: 20,
      contentTokens: 80,
      finishReason: "length",
    });
    expect(planResponse(profile, "a", 30, false, 1, 0, true)).toMatchObject({ contentTokens: 30, finishReason: "length" });
    // A patch that ends answers early whatever the request asked: the card must see the shorter answer.
    expect(planResponse(profile, "short", 100, false, 1, 0, true)).toMatchObject({ contentTokens: 25, finishReason: "stop" });
    // No limit to run on to: the answer ends where it would.
    expect(planResponse(profile, "a", Number.MAX_SAFE_INTEGER, false, 1, 0, true)).toMatchObject({
      contentTokens: 40,
      finishReason: "stop",
    });
  });

  it("applies per-prompt overrides and faults by prompt id", () => {
    expect(planResponse(profile, "fast", 100, false)).toMatchObject({ itlMs: 1, ttftMs: 10 });
    expect(planResponse(profile, "short", 100, false)).toMatchObject({ contentTokens: 10, finishReason: "stop" });
    expect(planResponse(profile, "boom", 100, false).fault).toBe("http500");
    expect(planResponse(profile, null, 100, false).fault).toBeNull();
  });
});
