import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { mergeScenarioConfig } from "../../src/config/merge-scenario-config.js";
import { fingerprintRound } from "../../src/config/fingerprint-round.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";

const base = {
  engine: "sglang",
  runtime: "process",
  port: 30000,
  baseline: { command: ["serve"] },
  bench: { prompts: "prompts.jsonl", maxTokens: 256, requestIntervalMs: 250, contextLimit: 4096, tolerance: 0.9, runs: 4 },
  gate: { minRoundScore: 1 },
};

const withScenarios = (scenarios: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...structuredClone(base),
  scenarios,
  ...extra,
});

function messageFor(input: unknown): string {
  try {
    parseRoundConfig(input, "round.yml");
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected the config to be refused");
}

describe("round config scenarios", () => {
  it("adds no field to a config without scenarios, so its parsed form and fingerprint stay as they were", () => {
    const config = parseRoundConfig(structuredClone(base));
    expect(config).not.toHaveProperty("scenarios");
    expect(config.gate).not.toHaveProperty("maxRegression");
    const withNone = fingerprintRound(config, "/round", []);
    const withSome = fingerprintRound(parseRoundConfig(withScenarios([{ name: "a" }])), "/round", []);
    expect(withSome.configHash).not.toBe(withNone.configHash);
  });

  it("merges each scenario over bench and gate: concurrency drops the open loop, an interval or arrival drops the closed one", () => {
    const config = parseRoundConfig(
      withScenarios(
        [
          { name: "chat-rate4", arrival: "poisson" },
          { name: "decode-c1", concurrency: 1, maxTokens: 128, runs: 2, warmupRequests: 3, gate: { minRoundScore: 0.98, minPrompts: 4 } },
        ],
        { gate: { minRoundScore: 1, maxRegression: 0.97 } },
      ),
    );
    expect(config.gate.maxRegression).toBe(0.97);
    const [open, closed] = (config.scenarios ?? []).map((scenario) => mergeScenarioConfig(config, scenario));
    expect(open?.bench).toMatchObject({ requestIntervalMs: 250, arrival: "poisson", concurrency: null, maxTokens: 256, runs: 4 });
    expect(open?.gate).toMatchObject({ minRoundScore: 1, maxRegression: 0.97 });
    expect(closed?.bench).toMatchObject({
      requestIntervalMs: 0,
      arrival: "fixed",
      concurrency: 1,
      maxTokens: 128,
      runs: 2,
      warmupRequests: 3,
    });
    expect(closed?.gate).toMatchObject({ minRoundScore: 0.98, minPrompts: 4, use: "interval-low" });

    // From a closed-loop bench, an interval opens the loop again.
    const closedBench = { ...structuredClone(base).bench, concurrency: 8, requestIntervalMs: undefined };
    const fromClosed = parseRoundConfig({ ...withScenarios([{ name: "rate16", requestIntervalMs: 62.5 }]), bench: closedBench });
    const merged = mergeScenarioConfig(fromClosed, fromClosed.scenarios?.[0] ?? { name: "x" });
    expect(merged.bench).toMatchObject({ requestIntervalMs: 62.5, arrival: "fixed", concurrency: null });
  });

  it("refuses both loads in one scenario, naming scenarios[i] and each field", () => {
    const message = messageFor(
      withScenarios([{ name: "ok" }, { name: "both", concurrency: 4, requestIntervalMs: 10, arrival: "poisson" }]),
    );
    expect(message).toContain(
      "scenarios[1].requestIntervalMs: expected either concurrency (a closed loop) or requestIntervalMs (an open loop) in one " +
        "scenario, not both",
    );
    expect(message).toContain("scenarios[1].arrival: expected either concurrency");
  });

  it("asks for an interval when an arrival would open a closed-loop bench", () => {
    const closedBench = { ...structuredClone(base).bench, concurrency: 8, requestIntervalMs: undefined };
    expect(messageFor({ ...withScenarios([{ name: "poisson", arrival: "poisson" }]), bench: closedBench })).toContain(
      "scenarios[0].requestIntervalMs: expected a number of milliseconds, 0 or more, with arrival: bench is a closed loop",
    );
  });

  it("holds each scenario's merged bench to what bench must satisfy", () => {
    const message = messageFor(
      withScenarios([
        { name: "long", maxTokens: 8192 },
        { name: "synthetic", prompts: { synthetic: { inputTokens: 4000, outputTokens: 200, count: 4 } } },
        { name: "floor", gate: { use: "noise-floor" } },
      ]),
    );
    expect(message).toContain("scenarios[0].maxTokens: expected at most bench.contextLimit (4096)");
    expect(message).toContain(
      "scenarios[1].prompts: expected the model's tokenizer.json on the runner (bench.tokenizer: { path, from: runner }) with " +
        "synthetic prompts",
    );
    expect(message).toContain(
      "scenarios[1].prompts.synthetic: expected inputTokens + outputTokens (4200) at most bench.contextLimit (4096)",
    );
    expect(message).toContain("scenarios[2].gate.use: expected the calibration file gate.use: noise-floor gates on");
  });

  it("refuses bad names, repeated names, unknown fields, a gate's calibration and an empty or too long list", () => {
    expect(messageFor(withScenarios([{ name: "-dash" }]))).toContain("scenarios[0].name: expected a name of 1 to 64 letters");
    expect(messageFor(withScenarios([{ concurrency: 2 }]))).toContain(
      "scenarios[0].name: expected a name of 1 to 64 letters, digits, spaces or . _ + -, starting with a letter or digit, such as " +
        "chat-rate4, but it is missing",
    );
    expect(messageFor(withScenarios([{ name: "a" }, { name: "a" }]))).toContain(
      'scenarios[1].name: expected distinct scenario names, but "a" is already used',
    );
    expect(messageFor(withScenarios([{ name: "a", contextLimit: 8 }]))).toContain("scenarios[0].contextLimit: unknown field");
    expect(messageFor(withScenarios([{ name: "a", gate: { calibration: "c.json" } }]))).toContain(
      "scenarios[0].gate.calibration: unknown field",
    );
    expect(messageFor(withScenarios([{ name: "a", concurrency: 0 }]))).toContain(
      "scenarios[0].concurrency: expected a whole number of requests in flight",
    );
    expect(messageFor(withScenarios([]))).toContain("scenarios: expected at least one scenario");
    expect(messageFor(withScenarios(Array.from({ length: 33 }, (_, index) => ({ name: `s${index}` }))))).toContain(
      "scenarios: expected at most 32 scenarios",
    );
    expect(messageFor(withScenarios([], { gate: { minRoundScore: 1, maxRegression: 1.2 } }))).toContain(
      "gate.maxRegression: expected a speedup in (0, 1], such as 0.97, got 1.2",
    );
  });

  describe("bench.prompts with scenarios", () => {
    const { prompts: _prompts, ...benchWithout } = base.bench;
    const withoutBenchPrompts = (scenarios: unknown): Record<string, unknown> => ({
      ...withScenarios(scenarios),
      bench: { ...benchWithout },
    });
    const expected =
      "bench.prompts: expected the path of a JSONL prompts file, or { synthetic: { inputTokens, outputTokens, count, seed } }";

    it("may be left out when every scenario sets its own prompts, which each scenario's merged bench then sends", () => {
      const config = parseRoundConfig(
        withoutBenchPrompts([
          { name: "chat", prompts: "prompts/chat.jsonl" },
          { name: "long", prompts: "prompts/long.jsonl", concurrency: 2 },
        ]),
      );
      expect(config.bench.prompts).toBeUndefined();
      expect((config.scenarios ?? []).map((scenario) => mergeScenarioConfig(config, scenario).bench.prompts)).toEqual([
        "prompts/chat.jsonl",
        "prompts/long.jsonl",
      ]);
    });

    it("is asked for by name when scenarios lack prompts, naming each of them", () => {
      expect(
        messageFor(
          withoutBenchPrompts([{ name: "chat-rate4" }, { name: "own", prompts: "own.jsonl" }, { name: "decode-c1", concurrency: 1 }]),
        ),
      ).toBe(
        `round.yml: ${expected}, since scenarios chat-rate4 and decode-c1 set no prompts of their own (or give each of them ` +
          `prompts), but it is missing`,
      );
      expect(messageFor(withoutBenchPrompts([{ name: "chat-rate4" }]))).toBe(
        `round.yml: ${expected}, since scenario chat-rate4 sets no prompts of its own (or give it prompts), but it is missing`,
      );
      // A scenario without a name is named by its place; one that is no object has only its own error.
      expect(messageFor(withoutBenchPrompts([5, { concurrency: 1 }]))).toContain(
        `${expected}, since scenario at scenarios[1] sets no prompts of its own`,
      );
    });

    it("stays required without scenarios, and is named beside the other fields' problems", () => {
      const message = messageFor({ ...structuredClone(base), bench: { ...benchWithout, maxTokens: "many" } });
      expect(message).toContain(`${expected}, but it is missing`);
      expect(message).toContain('bench.maxTokens: expected a whole number of tokens from 1 to 1000000, got "many"');
    });

    it("fingerprints a config without bench.prompts apart from the same one with it", () => {
      const scenarios = [{ name: "chat", prompts: "chat.jsonl" }];
      const without = fingerprintRound(parseRoundConfig(withoutBenchPrompts(scenarios)), "/round", []);
      const withIt = fingerprintRound(parseRoundConfig(withScenarios(scenarios)), "/round", []);
      expect(without.configHash).toMatch(/^[0-9a-f]{64}$/);
      expect(without.configHash).not.toBe(withIt.configHash);
    });
  });
});
