import { describe, expect, it } from "vitest";
import { findModelPaths } from "../../src/failure/find-model-paths.js";

describe("findModelPaths: the model paths an engine's command names", () => {
  it("llama.cpp: -m and --model, written apart or with =, relative or absolute (a GGUF is always a file)", () => {
    expect(findModelPaths("llama.cpp", ["llama-server", "-m", "tiny.gguf", "--port", "{port}"])).toEqual([
      { flag: "-m", path: "tiny.gguf" },
    ]);
    expect(findModelPaths("llama.cpp", ["llama-server", "--model=/models/a.gguf"])).toEqual([{ flag: "--model", path: "/models/a.gguf" }]);
    // -hf downloads: no path of its own to look for.
    expect(findModelPaths("llama.cpp", ["llama-server", "-hf", "Qwen/Qwen3-0.6B-GGUF"])).toEqual([]);
  });

  it("SGLang and vLLM: only values written as paths, since a Hugging Face id is not one", () => {
    expect(findModelPaths("sglang", ["python3", "-m", "sglang.launch_server", "--model-path", "/models/Qwen3-8B"])).toEqual([
      { flag: "--model-path", path: "/models/Qwen3-8B" },
    ]);
    expect(findModelPaths("sglang", ["python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-8B"])).toEqual([]);
    expect(findModelPaths("vllm", ["vllm", "serve", "./weights", "--port", "8000"])).toEqual([{ flag: "vllm serve", path: "./weights" }]);
    expect(findModelPaths("vllm", ["/usr/bin/vllm", "serve", "Qwen/Qwen3-8B"])).toEqual([]);
    expect(findModelPaths("vllm", ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "/models/x"])).toEqual([
      { flag: "--model", path: "/models/x" },
    ]);
  });

  it("an engine speedgate does not know, or a flag with no value, names none", () => {
    expect(findModelPaths(null, ["server", "-m", "/models/a.gguf"])).toEqual([]);
    expect(findModelPaths("llama.cpp", ["llama-server", "-m"])).toEqual([]);
    expect(findModelPaths("llama.cpp", ["llama-server", "-m", "--port", "1"])).toEqual([]);
  });
});
