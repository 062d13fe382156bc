import { describe, expect, it } from "vitest";
import { fingerprintRound } from "../../src/config/fingerprint-round.js";
import { parseRoundConfig, resolveConfigPaths } from "../../src/config/load-round-config.js";

const raw = {
  engine: "sim",
  runtime: "process",
  port: 30000,
  baseline: { command: ["node", "engine.js"], cwd: "./engine" },
  candidate: { patch: "./submission.patch", sourceDir: "./engine" },
  bench: { prompts: "./prompts.jsonl", maxTokens: 64, requestIntervalMs: 10, contextLimit: 4096, tolerance: 0.9 },
  gate: { minRoundScore: 1 },
};
const prompts = [{ id: "a", prompt: "hi" }];

describe("fingerprintRound", () => {
  it("is the same for one round checked out in two workspaces, whatever the patch's path", () => {
    const here = resolveConfigPaths(parseRoundConfig(raw), "/runner-1/work/repo");
    const there = resolveConfigPaths(
      parseRoundConfig({ ...raw, candidate: { ...raw.candidate, patch: "/tmp/pr-7.patch" } }),
      "/runner-2/_work/repo",
    );
    expect(fingerprintRound(here, "/runner-1/work/repo", prompts)).toEqual(fingerprintRound(there, "/runner-2/_work/repo", prompts));
  });

  it("changes with a setting or a prompt", () => {
    const config = resolveConfigPaths(parseRoundConfig(raw), "/w");
    const base = fingerprintRound(config, "/w", prompts);
    const slower = fingerprintRound({ ...config, bench: { ...config.bench, requestIntervalMs: 20 } }, "/w", prompts);
    expect(slower.configHash).not.toBe(base.configHash);
    expect(slower.promptsHash).toBe(base.promptsHash);
    expect(fingerprintRound(config, "/w", [{ id: "a", prompt: "hello" }]).promptsHash).not.toBe(base.promptsHash);
  });

  it("changes with bench.concurrency, and hashes an open loop as a config from before the field existed", () => {
    const config = resolveConfigPaths(parseRoundConfig(raw), "/w");
    const base = fingerprintRound(config, "/w", prompts).configHash;
    expect(fingerprintRound({ ...config, bench: { ...config.bench, concurrency: 4 } }, "/w", prompts).configHash).not.toBe(base);
    const { concurrency: _openLoop, ...before } = config.bench;
    expect(fingerprintRound({ ...config, bench: before as typeof config.bench }, "/w", prompts).configHash).toBe(base);
  });

  it("hashes a config as the code before bench.concurrency did, so calibrations made for it still match", () => {
    // Computed by the code before the closed loop existed: reordering the parsed bench fields changed it. bench.runs: 4 was
    // the default then, and a config that says it hashes as that config did: a number of runs keeps its meaning and its calibrations.
    const config = resolveConfigPaths(parseRoundConfig({ ...raw, bench: { ...raw.bench, runs: 4 } }), "/w");
    expect(fingerprintRound(config, "/w", prompts).configHash).toBe("91e75fd365855d3794f111a32994df985da5fcdec67b2c782a3e40749f477259");
  });

  it("hashes a config that sets every section (docker, source, scenarios, synthetic prompts, a tokenizer) as it always has", () => {
    // Computed before the round config's schema was split into a file per section: the fingerprint is the
    // parsed config's JSON, so a section or field that moved in the object would change it and orphan every
    // calibration made for the config.
    const every = {
      engine: "SGLang",
      runtime: "docker",
      port: 30000,
      health: { path: "/ready", timeoutS: 900 },
      baseline: {
        image: "lmsysorg/sglang:dev",
        command: ["python3", "-m", "sglang.launch_server", "--port", "{port}"],
        env: { HF_HUB_OFFLINE: "1" },
      },
      candidate: { sourceDir: "/sgl-workspace/sglang", postPatch: [["pip", "install", "-e", "python"]] },
      source: {
        revision: { file: "/sgl-workspace/sglang/.git/HEAD" },
        compiledPaths: ["sgl-kernel/**"],
        build: [["make"]],
        buildCache: "/root/.cache/ccache",
      },
      bench: {
        prompts: "./prompts.jsonl",
        model: "qwen3-8b",
        maxTokens: 512,
        requestIntervalMs: 500,
        arrival: "poisson",
        contextLimit: 32768,
        tolerance: 0.9,
        warmupRequests: 4,
        tokenizer: { path: "./models/tokenizer.json", from: "runner" },
        // The default before run budgets: the config keeps its hash (and its calibrations) by saying it.
        runs: 4,
      },
      gate: { minRoundScore: 1, maxRegression: 0.97, minPrompts: 8 },
      scenarios: [
        { name: "chat-rate4", requestIntervalMs: 250 },
        {
          name: "decode-c32",
          prompts: { synthetic: { inputTokens: 128, outputTokens: 256, count: 64, seed: 2 } },
          maxTokens: 256,
          concurrency: 32,
          gate: { minRoundScore: 0.95 },
        },
      ],
      docker: { gpus: 2, shmSize: "32g", mounts: ["./models:/models"], network: "isolated" },
      build: { timeoutS: 7200, network: "default" },
    };
    const config = resolveConfigPaths(parseRoundConfig(every), "/w");
    expect(fingerprintRound(config, "/w", prompts).configHash).toBe("b008f3aad30996b879b6efb52077645e1f6e221db62a231db135207a1857db15");
  });

  it("hashes a config without bench.runs with the default budget in it: the round it describes is another", () => {
    const config = resolveConfigPaths(parseRoundConfig(raw), "/w");
    expect(config.bench.runs).toEqual({ min: 2, max: 24 });
    expect(config.gate.use).toBe("sequential");
    const fixed = resolveConfigPaths(parseRoundConfig({ ...raw, bench: { ...raw.bench, runs: 4 } }), "/w");
    expect(fingerprintRound(config, "/w", prompts).configHash).not.toBe(fingerprintRound(fixed, "/w", prompts).configHash);
    expect(fingerprintRound(config, "/w", prompts).configHash).toBe("2120fec68c8c63505df383002dd7eac4cc2907234a3819358aa904417ed2dd3c");
  });

  it(
    "does not change with how the client waits for bytes (bench.busyPoll), " + "so a calibration holds on a runner where auto turns it on",
    () => {
      const config = resolveConfigPaths(parseRoundConfig(raw), "/w");
      expect(config.bench.busyPoll).toBe("auto");
      const hashes = (["auto", "on", "off"] as const).map(
        (busyPoll) => fingerprintRound({ ...config, bench: { ...config.bench, busyPoll } }, "/w", prompts).configHash,
      );
      expect(new Set(hashes).size).toBe(1);
    },
  );
});
