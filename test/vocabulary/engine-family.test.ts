import { describe, expect, it } from "vitest";
import { canonicalEngineName, engineFamily } from "../../src/vocabulary/engine-family.js";
import { parseRoundConfig } from "../../src/config/load-round-config.js";

describe("engineFamily", () => {
  it.each([
    ["llama.cpp", "llama.cpp"],
    ["llama-cpp", "llama.cpp"],
    ["llamacpp", "llama.cpp"],
    ["LlamaCpp", "llama.cpp"],
    ["llama_cpp", "llama.cpp"],
    ["llama-server", "llama.cpp"],
    ["SGLang", "sglang"],
    ["vLLM", "vllm"],
    ["sglang @octocat #12", "sglang"],
    ["sim", null],
    ["llama", null],
  ] as const)("%s is %s", (name, family) => {
    expect(engineFamily(name)).toBe(family);
  });

  it("gives a known engine's aliases its one name and keeps any other name as written", () => {
    expect(canonicalEngineName("llama-cpp")).toBe("llama.cpp");
    expect(canonicalEngineName("vLLM")).toBe("vllm");
    expect(canonicalEngineName("sglang @octocat #12")).toBe("sglang @octocat #12");
    expect(canonicalEngineName("my-engine")).toBe("my-engine");
  });

  it("is what the round config keeps, so a calibration for llama.cpp fits a round that says llamacpp", () => {
    const config = parseRoundConfig({
      engine: "llamacpp",
      runtime: "process",
      port: 18480,
      baseline: { command: ["llama-server"] },
      bench: { prompts: "p.jsonl", maxTokens: 8, requestIntervalMs: 0, contextLimit: 1024, tolerance: 0.9 },
      gate: { minRoundScore: 1 },
    });
    expect(config.engine).toBe("llama.cpp");
  });
});
