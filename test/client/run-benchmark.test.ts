import { describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { buildArrivalSchedule } from "../../src/client/build-arrival-schedule.js";
import { eventLoopAwakeHolders } from "../../src/client/keep-event-loop-awake.js";
import { type BenchmarkProgress, runBenchmark } from "../../src/client/run-benchmark.js";
import type { BenchSettings } from "../../src/config/bench-settings-schema.js";
import type { Prompt } from "../../src/prompts/prompt.js";
import type { SimRequestRecord } from "../../src/sim-engine/chunk-write-log.js";
import { startSimEngine } from "../../src/sim-engine/start-sim-engine.js";
import { startScriptedServer } from "./start-scripted-server.js";
import { useSimEngines } from "./support/use-sim-engines.js";

/** One SSE event of a chat completion stream, with `fields` after the envelope every chunk carries. */
function chatEvent(fields: string): string {
  return `data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"sim-model",${fields}}\n\n`;
}

const bench: BenchSettings = {
  prompts: "prompts.jsonl",
  model: "sim-model",
  maxTokens: 1000,
  requestIntervalMs: 10,
  concurrency: null,
  arrival: "fixed",
  seed: 1,
  thinking: false,
  contextLimit: 8192,
  tolerance: 0.9,
  warmupRequests: 0,
  agreementTokens: 16,
  minPromptAgreement: 0.5,
  runs: 1,
  order: "counterbalanced",
  clientWarmup: false,
  requestTimeoutS: 30,
  busyPoll: "off",
};

const prompts: Prompt[] = ["p0", "p1", "p2", "p3", "p4"].map((id) => ({ id, messages: [{ role: "user", content: id }] }));

/** The prompts recorded as answered, in prompt order. */
function answeredPromptIds(records: ReadonlyMap<string, { ok: boolean }>): string[] {
  return prompts.filter((prompt) => records.get(prompt.id)?.ok === true).map((prompt) => prompt.id);
}

/** The prompts whose answers the engine handed to the socket in full, by its own log. */
function completedPromptIds(engine: { writeLog: { requests: readonly SimRequestRecord[] } }): string[] {
  return engine.writeLog.requests.filter((request) => request.outcome === "completed").map((request) => request.promptId ?? "");
}

describe("runBenchmark", () => {
  // The engines find a prompt's profile entry by its content: requests do not name their prompt.
  const start = useSimEngines({ prompts });

  it("sends every prompt in order without waiting for earlier answers (open loop)", async () => {
    // p0 streams for about a second; the others are quick and start every 10 ms regardless.
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 5 }, prompts: { p0: { itlMs: 5, outputTokens: 200 } } });
    const progress: BenchmarkProgress[] = [];
    const records = await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench,
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p),
    });
    expect([...records.keys()].sort()).toEqual(["p0", "p1", "p2", "p3", "p4"]);
    expect([...records.values()].every((record) => record.ok)).toBe(true);
    const log = engine.writeLog.requests;
    // In order is what the client controls: when a busy machine delays its timers, sends due together go out
    // microseconds apart and can reach the engine in either order.
    const sent = prompts.map((prompt) => {
      const record = records.get(prompt.id);
      return record?.ok ? (record.sentMs ?? -1) : -1;
    });
    expect(sent.every((at) => at >= 0)).toBe(true);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(log.map((request) => request.promptId).sort()).toEqual(["p0", "p1", "p2", "p3", "p4"]);
    const p0 = log.find((request) => request.promptId === "p0");
    const p1 = log.find((request) => request.promptId === "p1");
    expect(p0?.finishedAtMs).not.toBeNull();
    expect(p1?.receivedAtMs ?? Infinity).toBeLessThan(p0?.finishedAtMs ?? 0);
    expect(progress[0]).toEqual({ done: 0, total: 5, failed: 0 });
    expect(progress.at(-1)).toEqual({ done: 5, total: 5, failed: 0 });
    // The long prompt finishes last even though it was sent first.
    expect(Math.max(...log.map((request) => request.finishedAtMs ?? 0))).toBe(p0?.finishedAtMs);
  });

  it("tells how long its warm-up and its measured part took, each at least what the engine spent on them", async () => {
    // A closed loop of one: the warm-up request is answered in at least 60 ms, the measured five in at least 5 × 60.
    const engine = await start({ defaults: { ttftMs: 20, itlMs: 10, outputTokens: 5 } });
    const told: Array<{ warmupMs: number; benchmarkMs: number }> = [];
    await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench: { ...bench, concurrency: 1, warmupRequests: 1 },
      signal: new AbortController().signal,
      onTimeSpent: (spent) => told.push(spent),
    });
    expect(told).toHaveLength(1);
    expect(told[0]?.warmupMs).toBeGreaterThanOrEqual(60);
    expect(told[0]?.benchmarkMs).toBeGreaterThanOrEqual(5 * 60);
  });

  it("runs warm-up requests first, none of them a measured prompt, and does not score them", async () => {
    // An engine that caches whole answers: anything it answered before comes back 50 times faster.
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 2 }, cheats: { answerCacheSpeedup: 50 } });
    const records = await runBenchmark({
      baseUrl: engine.url,
      prompts: prompts.slice(0, 3),
      bench: { ...bench, warmupRequests: 4 },
      signal: new AbortController().signal,
    });
    // The warm-ups carry no prompt's content (null: the engine matched none), so no scored request was answered before.
    // What the client controls: every warm-up before any scored request. The order in which the engine
    // accepted the scored ones is the kernel's (a loaded machine accepted p1 before p0, sent first).
    const ids = engine.writeLog.requests.map((request) => request.promptId);
    expect(ids.slice(0, 4)).toEqual([null, null, null, null]);
    expect(ids.slice(4).sort()).toEqual(["p0", "p1", "p2"]);
    expect(engine.writeLog.requests.filter((request) => request.promptId !== null && request.answeredBefore)).toEqual([]);
    expect(records.size).toBe(3);
    // The scored run starts only after every warm-up answer is back.
    const lastWarmupEnd = Math.max(...engine.writeLog.requests.slice(0, 4).map((request) => request.finishedAtMs ?? Infinity));
    const firstScored = Math.min(...engine.writeLog.requests.slice(4).map((request) => request.receivedAtMs));
    expect(firstScored).toBeGreaterThanOrEqual(lastWarmupEnd);
  });

  it("records failed prompts with their reasons and counts them in progress", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 4 }, faults: { http500: ["p1"], malformedSse: ["p3"] } });
    const progress: BenchmarkProgress[] = [];
    const records = await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench,
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p),
    });
    expect(records.get("p1")).toMatchObject({ ok: false, kind: "http_error" });
    expect(records.get("p3")).toMatchObject({ ok: false, kind: "stream_error" });
    expect(records.get("p0")?.ok).toBe(true);
    expect(progress.at(-1)).toEqual({ done: 5, total: 5, failed: 2 });
  });

  it("on abort returns at once and records every unanswered prompt as engine_died", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 2 }, prompts: { p1: { itlMs: 50, outputTokens: 1000 } } });
    const controller = new AbortController();
    const pending = runBenchmark({
      baseUrl: engine.url,
      prompts,
      // A second between sends: p2 must stay unsent until the abort, even when a busy machine holds the poll back.
      bench: { ...bench, requestIntervalMs: 1000 },
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done !== 1) return;
        // Abort once p1 is streaming, so the abort meets one request in flight and three unsent.
        const poll = setInterval(() => {
          if ((engine.writeLog.requests[1]?.chunkWritesMs.length ?? 0) === 0) return;
          clearInterval(poll);
          controller.abort(new Error("the candidate engine exited with code 137"));
        }, 2);
      },
    });
    const records = await pending;
    expect(records.get("p0")?.ok).toBe(true);
    for (const id of ["p1", "p2", "p3", "p4"]) {
      expect(records.get(id)).toMatchObject({ ok: false, kind: "engine_died", reason: "the candidate engine exited with code 137" });
    }
    // p1 was streaming when the abort came, the others were never sent.
    expect(engine.writeLog.requests.map((request) => request.promptId)).toEqual(["p0", "p1"]);
  });

  it("keeps the event loop awake with busyPoll on, from the warm-up to the last answer, and lets go after, aborted or not", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 1, outputTokens: 3 } });
    const heldDuring: number[] = [];
    const records = await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench: { ...bench, busyPoll: "on", warmupRequests: 2 },
      signal: new AbortController().signal,
      onProgress: () => heldDuring.push(eventLoopAwakeHolders()),
    });
    expect([...records.values()].every((record) => record.ok)).toBe(true);
    expect(heldDuring.length).toBeGreaterThan(0);
    expect(heldDuring.every((holders) => holders === 1)).toBe(true);
    expect(eventLoopAwakeHolders()).toBe(0);

    const off: number[] = [];
    await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench,
      signal: new AbortController().signal,
      onProgress: () => off.push(eventLoopAwakeHolders()),
    });
    expect(off.every((holders) => holders === 0)).toBe(true);

    const aborted = new AbortController();
    aborted.abort(new Error("the baseline engine exited with code 1"));
    await runBenchmark({ baseUrl: engine.url, prompts, bench: { ...bench, busyPoll: "on" }, signal: aborted.signal });
    expect(eventLoopAwakeHolders()).toBe(0);
  });

  it("streams 300 prompts sent together without a listener-leak warning", async () => {
    const engine = await start({ defaults: { ttftMs: 50, itlMs: 5, outputTokens: 10 } });
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on("warning", onWarning);
    try {
      const many: Prompt[] = Array.from({ length: 300 }, (_, index) => ({ id: `m${index}`, prompt: "x" }));
      const records = await runBenchmark({
        baseUrl: engine.url,
        prompts: many,
        bench: { ...bench, requestIntervalMs: 0 },
        signal: new AbortController().signal,
      });
      expect([...records.values()].filter((record) => record.ok)).toHaveLength(300);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("records the connections an engine drops as it dies as engine_died once its death is reported", async () => {
    const gone = new AbortController();
    const engine = await start(
      {
        defaults: { ttftMs: 1, itlMs: 0, outputTokens: 2 },
        prompts: { p1: { itlMs: 20, outputTokens: 1000 } },
        faults: { dieAfterRequests: 3 },
      },
      // As the round runner does when the engine process exits.
      { onDie: (code) => gone.abort(new Error(`the engine exited with code ${code}`)) },
    );
    const records = await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench: { ...bench, requestIntervalMs: 100 },
      signal: new AbortController().signal,
      engineGone: gone.signal,
    });
    expect(records.get("p0")?.ok).toBe(true);
    const cut = records.get("p1");
    expect(cut).toMatchObject({ ok: false, kind: "engine_died" });
    expect(cut?.ok === false && cut.reason).toMatch(/^the engine exited with code 1/);
    expect(cut?.ok === false && (cut.chunks?.length ?? 0)).toBeGreaterThan(0);
    // Which quick prompt was its third answer is the engine's to say: sends a busy machine held back go out
    // together (p3 and p4, 100 ms apart) and can reach it in either order. Every one it did not answer died with it.
    const answered = answeredPromptIds(records);
    expect(answered.length).toBeGreaterThanOrEqual(3);
    expect(completedPromptIds(engine)).toEqual(expect.arrayContaining(answered));
    for (const prompt of prompts.filter((one) => !answered.includes(one.id)))
      expect(records.get(prompt.id), prompt.id).toMatchObject({ ok: false, kind: "engine_died" });
  });

  describe("a closed loop (bench.concurrency)", () => {
    /** A finished chat answer of one token, with usage. */
    const finishedAnswer = (): string =>
      chatEvent(`"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":null}]`) +
      chatEvent(
        `"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}`,
      ) +
      "data: [DONE]\n\n";

    /*
     * A server that holds every request until `concurrency` are open at once (or every prompt not yet
     * answered is), then answers the one that came first: the client must fill each slot an answer
     * frees, and no timing decides anything.
     */
    async function startGatedServer(concurrency: number, total: number) {
      const held: Array<{ res: ServerResponse; content: string }> = [];
      let answered = 0;
      let mostOpen = 0;
      const server = await startScriptedServer((_req, res) => {
        const body = JSON.parse(server.received.at(-1)?.body ?? "{}") as { messages?: Array<{ content: string }> };
        held.push({ res, content: body.messages?.[0]?.content ?? "" });
        mostOpen = Math.max(mostOpen, held.length);
        // Near the end fewer than `concurrency` prompts are left, and no new request comes to set off the next answer.
        while (held.length > 0 && held.length >= Math.min(concurrency, total - answered)) {
          const first = held.shift();
          answered++;
          first?.res.writeHead(200, { "content-type": "text/event-stream" });
          first?.res.end(finishedAnswer());
        }
      });
      return { server, mostOpen: () => mostOpen, stillHeld: () => held.length };
    }

    it.each([1, 2, 3])(
      "keeps exactly %i requests in flight until the prompts run out, and sends every prompt once, in order",
      async (concurrency) => {
        const gated = await startGatedServer(concurrency, prompts.length);
        try {
          const records = await runBenchmark({
            baseUrl: gated.server.url,
            prompts,
            bench: { ...bench, concurrency },
            signal: new AbortController().signal,
          });
          expect([...records.values()].every((record) => record.ok)).toBe(true);
          expect([...records.keys()].sort()).toEqual(["p0", "p1", "p2", "p3", "p4"]);
          const sent = gated.server.received.map(
            (request) => (JSON.parse(request.body) as { messages: Array<{ content: string }> }).messages[0]?.content,
          );
          expect(sent).toEqual(["p0", "p1", "p2", "p3", "p4"]);
          // The server answers only once `concurrency` wait: had the client kept fewer open, the round would never end.
          expect(gated.mostOpen()).toBe(concurrency);
          expect(gated.stillHeld()).toBe(0);
        } finally {
          await gated.server.close();
        }
      },
    );

    it("never opens more requests than there are prompts", async () => {
      const gated = await startGatedServer(prompts.length, prompts.length);
      try {
        const records = await runBenchmark({
          baseUrl: gated.server.url,
          prompts,
          bench: { ...bench, concurrency: 64 },
          signal: new AbortController().signal,
        });
        expect([...records.values()].every((record) => record.ok)).toBe(true);
        expect(gated.server.received).toHaveLength(5);
        expect(gated.mostOpen()).toBe(5);
      } finally {
        await gated.server.close();
      }
    });

    it("sends nothing more once the engine is gone, and records the prompts it never sent", async () => {
      const gone = new AbortController();
      const server = await startScriptedServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        // The first answer ends, then the engine is gone before the loop can send the next prompt.
        res.end(finishedAnswer(), () => gone.abort(new Error("the engine exited with code 1")));
      });
      try {
        const records = await runBenchmark({
          baseUrl: server.url,
          prompts,
          bench: { ...bench, concurrency: 1 },
          signal: new AbortController().signal,
          engineGone: gone.signal,
        });
        expect(server.received).toHaveLength(1);
        expect(records.get("p0")?.ok).toBe(true);
        for (const id of ["p1", "p2", "p3", "p4"]) expect(records.get(id)).toMatchObject({ ok: false, kind: "engine_died" });
      } finally {
        await server.close();
      }
    });
  });

  it("keeps an answer the engine finished before it died, though the client hears of the death before it reads the answer", async () => {
    const gone = new AbortController();
    const chunk = (body: string): string => chatEvent(`"choices":[${body}]`);
    const server = await startScriptedServer((_req, res, socket) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const answer =
        chunk(`{"index":0,"delta":{"content":"hello there"},"finish_reason":null}`) +
        chatEvent(
          `"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}`,
        ) +
        "data: [DONE]\n\n";
      // The last bytes are in the kernel when the process dies; the client is told of the exit in the
      // same turn, before its loop comes round to read the socket (what a busy runner does).
      res.end(answer, () => {
        gone.abort(new Error("the engine exited with code 1"));
        socket.destroy();
      });
    });
    try {
      const two = prompts.slice(0, 2);
      const records = await runBenchmark({
        baseUrl: server.url,
        prompts: two,
        bench: { ...bench, requestIntervalMs: 500 },
        signal: new AbortController().signal,
        engineGone: gone.signal,
      });
      expect(records.get("p0")).toMatchObject({ ok: true, text: { content: "hello there" } });
      // Nothing is sent to an engine known to be gone.
      expect(records.get("p1")).toMatchObject({ ok: false, kind: "engine_died", reason: "the engine exited with code 1" });
      expect(server.received).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("records the prompts after an engine death by the die-after-requests fault as failures", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 2 }, faults: { dieAfterRequests: 2 } });
    const records = await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench: { ...bench, requestIntervalMs: 100 },
      signal: new AbortController().signal,
    });
    expect(records.get("p0")?.ok).toBe(true);
    // Which prompt was its second answer is the engine's to say: sends a busy machine held back go out together
    // (p1 and p2, 100 ms apart) and can reach it in either order. Only answers it completed are recorded as answers.
    const answered = answeredPromptIds(records);
    expect(answered.length).toBeGreaterThanOrEqual(2);
    expect(completedPromptIds(engine)).toEqual(expect.arrayContaining(answered));
    expect(records.get("p4")).toMatchObject({ ok: false, kind: "connection_error" });
  });
});

describe("buildArrivalSchedule", () => {
  it("spaces fixed arrivals exactly", () => {
    expect(buildArrivalSchedule(4, 250, "fixed", 1)).toEqual([0, 250, 500, 750]);
  });

  it("draws the same Poisson schedule for the same seed and a different one for another", () => {
    const first = buildArrivalSchedule(2000, 100, "poisson", 7);
    expect(buildArrivalSchedule(2000, 100, "poisson", 7)).toEqual(first);
    expect(buildArrivalSchedule(2000, 100, "poisson", 8)).not.toEqual(first);
    expect(first[0]).toBe(0);
    const gaps = first.slice(1).map((at, index) => at - (first[index] ?? 0));
    expect(gaps.every((gap) => gap >= 0)).toBe(true);
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    expect(mean).toBeGreaterThan(85);
    expect(mean).toBeLessThan(115);
  });

  it("sends Poisson arrivals in prompt order, each at its place in the schedule", async () => {
    const engine = await startSimEngine({ prompts, profile: { defaults: { ttftMs: 1, itlMs: 0, outputTokens: 1 } } });
    try {
      const records = await runBenchmark({
        baseUrl: engine.url,
        prompts,
        bench: { ...bench, arrival: "poisson", seed: 3 },
        signal: new AbortController().signal,
      });
      const schedule = buildArrivalSchedule(prompts.length, bench.requestIntervalMs, "poisson", 3);
      const sent = prompts.map((prompt) => {
        const record = records.get(prompt.id);
        return record?.ok ? (record.sentMs ?? -1) : -1;
      });
      // Node's timers may fire up to a millisecond before their time.
      sent.forEach((at, index) => expect(at).toBeGreaterThanOrEqual((schedule[index] ?? 0) - 2));
      expect(sent).toEqual([...sent].sort((a, b) => a - b));
      // The engine got each once. Two sends a few microseconds apart can reach it in either order (the kernel
      // accepts the connections), so the order it logged is not what the client controls.
      expect(engine.writeLog.requests.map((request) => request.promptId).sort()).toEqual(["p0", "p1", "p2", "p3", "p4"]);
    } finally {
      await engine.close();
    }
  });
});
