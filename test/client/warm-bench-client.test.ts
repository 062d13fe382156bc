import { describe, expect, it } from "vitest";
import { runBenchmark } from "../../src/client/run-benchmark.js";
import { isBenchClientWarm, warmBenchClient } from "../../src/client/warm-bench-client.js";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import type { Prompt } from "../../src/prompts/prompt.js";
import { useSimEngines } from "./support/use-sim-engines.js";

const prompts: Prompt[] = ["w0", "w1", "w2"].map((id) => ({ id, messages: [{ role: "user", content: `warm ${id}` }] }));
const bench = parseRoundConfig({
  engine: "test",
  runtime: "process",
  port: 1,
  baseline: { command: ["unused"] },
  bench: { prompts: "prompts.jsonl", maxTokens: 8, requestIntervalMs: 0, contextLimit: 1024, tolerance: 0.9, runs: 1, busyPoll: "off" },
  gate: { minRoundScore: 1 },
});

// The warm-up is once per process: these tests run in order, the cold client first.
describe("the benchmark client's warm-up", () => {
  const start = useSimEngines({ prompts });

  it("is on by default, and off leaves the first measured request to a cold client", async () => {
    expect(bench.bench.clientWarmup).toBe(true);
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 4 } });
    let warmAtFirstRequest: boolean | null = null;
    await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench: { ...bench.bench, clientWarmup: false },
      signal: new AbortController().signal,
      beforeMeasured: () => Promise.resolve(void (warmAtFirstRequest = isBenchClientWarm())),
    });
    expect(warmAtFirstRequest).toBe(false);
  });

  it("warms the client before the first measured request without sending the engine anything", async () => {
    const engine = await start({ defaults: { ttftMs: 1, itlMs: 0, outputTokens: 4 } });
    let warmAtFirstRequest: boolean | null = null;
    const records = await runBenchmark({
      baseUrl: engine.url,
      prompts,
      bench: bench.bench,
      signal: new AbortController().signal,
      beforeMeasured: () => Promise.resolve(void (warmAtFirstRequest = isBenchClientWarm())),
    });
    expect(warmAtFirstRequest).toBe(true);
    expect([...records.values()].every((record) => record.ok)).toBe(true);
    // The engines are measured exactly as before: only the measured prompts reach them.
    expect(engine.writeLog.requests).toHaveLength(prompts.length);
  });

  it("runs once per process, so every later engine and every later round starts from the same client", () => {
    expect(warmBenchClient()).toBe(warmBenchClient());
    expect(isBenchClientWarm()).toBe(true);
  });
});
