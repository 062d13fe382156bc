import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ClassifyInput, classifyFailure } from "../../src/failure/classify-failure.js";

function fixture(name: string): string[] {
  const text = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
  return text.replace(/\n$/, "").split("\n");
}

const exited = (exitCode: number | null, signal: string | null = null, oomKilled = false) => ({ exitCode, signal, oomKilled });

function classify(logLines: string[], overrides: Partial<ClassifyInput> = {}) {
  return classifyFailure({ role: "candidate", stage: "startup", exit: exited(1), logLines, ...overrides });
}

describe("classifyFailure", () => {
  it("names the seed's CUDA graph capture OOM and keeps its traceback lines", () => {
    const lines = fixture("sglang-cuda-graph-oom.log");
    const failure = classify(lines);
    expect(failure.kind).toBe("cuda_oom");
    expect(failure.label).toBe("CUDA out of memory during CUDA graph capture");
    expect(failure.summary).toMatch(
      /^torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 136\.00 MiB\. GPU 3 has a total capacity/,
    );
    expect(failure.hint).toContain("--mem-fraction-static");
    expect(failure.hint).toContain("--cuda-graph-max-bs");
    expect(failure.hint).toContain("--gpu-memory-utilization");
    expect(failure.hint).toContain("--enforce-eager");
    expect(failure.hint).toContain("nvidia-smi");
    // The round config says which engine it is: then the hint names that engine's flags only.
    const sglang = classify(lines, { engine: "sglang" }).hint;
    expect(sglang).toContain("--mem-fraction-static");
    expect(sglang).not.toContain("--gpu-memory-utilization");
    expect(sglang).not.toContain("vLLM");
    expect(failure.logTail).toContain('  File "/src/python/sglang/srt/layers/quantization/unquant.py", line 433, in apply');
    expect(failure.logTail).toContain("    return F.linear(x, layer.weight, bias)");
    expect(failure.logTail.some((line) => /^\s+\^+$/.test(line))).toBe(true);
    // Colours are stripped from the tail; the line itself stays.
    expect(failure.logTail).toContain("[2026-09-17 14:11:46 TP3] Prefill cuda graph capture: num_tokens=8192");
    expect(failure.logTail.at(-1)).toBe("[2026-09-17 14:11:47] kill_process_tree called: parent_pid=1, include_parent=False, pid=1");
    expect(failure).toMatchObject({ engine: "candidate", stage: "startup", exitCode: 1, signal: null });
  });

  it("tells a vLLM CUDA graph OOM apart behind the API server's wrapper error, with ANSI colours and worker tags", () => {
    const failure = classify(fixture("vllm-cuda-graph-oom.log"));
    expect(failure.kind).toBe("cuda_oom");
    expect(failure.label).toBe("CUDA out of memory during CUDA graph capture");
    expect(failure.summary).toBe(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 224.00 MiB. GPU 0 has a total capacity of 23.55 GiB of which " +
        "81.06 MiB is free.",
    );
    expect(failure.logTail.every((line) => !line.includes("\u001b"))).toBe(true);
  });

  it("recognises vLLM's KV cache shortage as a KV cache OOM, not the wrapper that follows it", () => {
    const failure = classify(fixture("vllm-kv-cache-oom.log"));
    expect(failure.kind).toBe("cuda_oom");
    expect(failure.label).toBe("CUDA out of memory while allocating the KV cache");
    expect(failure.summary).toMatch(/^ValueError: No available memory for the cache blocks/);
    expect(failure.hint).toContain("--max-model-len");
    expect(failure.hint).toContain("--max-total-tokens");
  });

  it("gives a different hint for an OOM while loading weights", () => {
    const failure = classify(fixture("sglang-weights-oom.log"));
    expect(failure.label).toBe("CUDA out of memory while loading weights");
    expect(failure.summary).toMatch(/^torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 1\.75 GiB/);
    expect(failure.hint).toContain("--tp");
    expect(failure.hint).toMatch(/quantiz/);
    expect(failure.hint).not.toContain("--cuda-graph-max-bs");
  });

  it("calls an OOM without a telling frame plain CUDA out of memory", () => {
    const failure = classify(
      ["Traceback (most recent call last):", '  File "x.py", line 1, in f', "RuntimeError: CUDA error: out of memory"],
      { stage: "benchmark" },
    );
    expect(failure).toMatchObject({
      kind: "cuda_oom",
      label: "CUDA out of memory while serving",
      summary: "RuntimeError: CUDA error: out of memory",
    });
  });

  it("classifies NCCL failures from torch.distributed workers", () => {
    const failure = classify(fixture("torch-nccl-error.log"));
    expect(failure.kind).toBe("nccl_error");
    expect(failure.summary).toMatch(/NCCL|nccl/);
    expect(failure.summary).not.toMatch(/^\[rank1\]/);
    expect(failure.hint).toContain("NCCL_DEBUG=INFO");
    expect(failure.hint).toContain("shm");
  });

  it("points a broken patch's syntax error at the file and line", () => {
    const failure = classify(fixture("sglang-syntax-error.log"));
    expect(failure.kind).toBe("import_error");
    expect(failure.label).toContain("SyntaxError");
    expect(failure.summary).toBe(
      "SyntaxError: '(' was never closed (/sgl-workspace/sglang/python/sglang/srt/layers/attention/flashinfer_backend.py, line 88)",
    );
    expect(failure.hint).toContain("flashinfer_backend.py, line 88");
  });

  it.each([
    ["ImportError: cannot import name 'fused_moe' from 'sglang.srt.layers' (/src/sglang/srt/layers/__init__.py)"],
    ["ModuleNotFoundError: No module named 'sgl_kernel'"],
    ["IndentationError: unexpected indent"],
    ["NameError: name 'torch' is not defined"],
    [
      "AttributeError: partially initialized module 'sglang.srt.layers.moe' has no attribute 'FusedMoE' (most likely due to a " +
        "circular import)",
    ],
    ["AttributeError: module 'vllm.model_executor.layers.quantization' has no attribute 'get_quant_config'"],
  ])("treats %s as an import error", (line) => {
    expect(classify(["Traceback (most recent call last):", '  File "/src/m.py", line 3, in <module>', line]).kind).toBe("import_error");
  });

  it.each([
    ["RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.", "kv_cache"],
    [
      "ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache " +
        "(50000). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
      "kv_cache",
    ],
    ["torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB", "other"],
  ])("labels %s by where memory ran out", (line, phase) => {
    const failure = classify(["Traceback (most recent call last):", '  File "/src/engine.py", line 3, in run', line]);
    expect(failure.kind).toBe("cuda_oom");
    expect(failure.label).toBe(phase === "kv_cache" ? "CUDA out of memory while allocating the KV cache" : "CUDA out of memory");
    expect(failure.summary).toBe(line);
  });

  it.each([
    ["OSError: [Errno 98] Address already in use"],
    ["RuntimeError: Port 30000 is already in use by another process"],
    ["Error: listen EADDRINUSE: address already in use 127.0.0.1:30000"],
  ])("treats %s as a port in use", (line) => {
    expect(classify([line]).kind).toBe("port_in_use");
  });

  it("does not blame an AttributeError on an object (a runtime bug) on imports", () => {
    expect(classify(["AttributeError: 'NoneType' object has no attribute 'shape'"]).kind).toBe("exited");
  });

  it("finds a port already in use and names the port", () => {
    const failure = classify(fixture("uvicorn-port-in-use.log"));
    expect(failure.kind).toBe("port_in_use");
    expect(failure.summary).toBe("[Errno 98] error while attempting to bind on address ('127.0.0.1', 30000): address already in use");
    expect(failure.hint).toContain("30000");
  });

  it("treats the kernel's OOM killer as host memory, from Docker's flag or a bare Killed", () => {
    expect(classify(["loading"], { exit: exited(137, null, true) })).toMatchObject({ kind: "host_oom", exitCode: 137 });
    const killed = classify(["Loading safetensors checkpoint shards:  50% Completed | 1/2", "Killed"], { exit: exited(null, "SIGKILL") });
    expect(killed).toMatchObject({ kind: "host_oom", signal: "SIGKILL" });
  });

  it("reports a startup timeout with the last words as the summary", () => {
    const failure = classify(["[2026-09-17 14:10:10 TP0] Load weight begin. avail mem=78.52 GB"], {
      exit: null,
      timedOut: { afterS: 1200 },
    });
    expect(failure).toMatchObject({ kind: "startup_timeout", exitCode: null, summary: "Load weight begin. avail mem=78.52 GB" });
    expect(failure.label).toContain("1200 s");
    expect(failure.hint).toContain("health.timeoutS");
  });

  it("falls back to exited with the exit code, the last exception and timestamps removed", () => {
    const failure = classify(["2026-09-17T14:11:47.123456789Z INFO starting", "2026-09-17T14:11:48.000000001Z KeyError: 'rope_scaling'"], {
      exit: exited(2),
    });
    expect(failure).toMatchObject({ kind: "exited", label: "exited with code 2", summary: "KeyError: 'rope_scaling'" });
    expect(classify([], { exit: exited(null, "SIGTERM") })).toMatchObject({
      kind: "exited",
      label: "killed by SIGTERM",
      summary: "the engine was killed by SIGTERM without printing anything",
    });
    // A fatal signal is a crash of its own, even with nothing printed.
    expect(classify([], { exit: exited(null, "SIGSEGV") })).toMatchObject({
      kind: "fatal_signal",
      label: "segmentation fault (SIGSEGV)",
      summary: "the engine was killed by SIGSEGV (segmentation fault) without printing why",
    });
  });

  it("blames the infrastructure the runtime lost, whatever the log or the exit says", () => {
    const infrastructure = {
      label: "the Docker daemon went away (infrastructure, not the patch)",
      summary: "lost the connection: aborted",
      hint: "check the daemon",
    };
    // A CUDA OOM in the tail and a SIGKILL would otherwise decide it; a lost daemon overrides both.
    const failure = classify(["torch.OutOfMemoryError: CUDA out of memory.", "Killed"], {
      stage: "benchmark",
      exit: { ...exited(null, "SIGKILL"), infrastructure },
    });
    expect(failure).toMatchObject({
      kind: "infrastructure",
      stage: "benchmark",
      label: infrastructure.label,
      summary: infrastructure.summary,
      hint: "check the daemon",
      signal: "SIGKILL",
    });
    expect(failure.logTail).toEqual(["torch.OutOfMemoryError: CUDA out of memory.", "Killed"]);
  });

  it("a model path the runtime found missing decides a startup exit whose log says nothing of its own, and only that", () => {
    const missingModel = { flag: "-m", path: "/models/missing.gguf", where: "container" as const };
    // llama-server lost its last lines: the log stops at its banner.
    const banner = ["0.00.020.658 W srv  llama_server: -----------------"];
    expect(classify(banner, { exit: { ...exited(1), missingModel }, engine: "llama.cpp" })).toMatchObject({
      kind: "model_not_found",
      label: "the model file is not there",
      summary:
        "-m /models/missing.gguf: no such file or folder in the engine's container (found by speedgate after the engine exited; " +
        "its log does not say why)",
    });
    expect(classify([], { exit: { ...exited(1), missingModel: { ...missingModel, where: "runner" } } }).summary).toContain("on the runner");
    // The engine's own line wins, and says it in its words.
    const said = classify(["gguf_init_from_file: failed to open GGUF file '/models/missing.gguf' (No such file or directory)"], {
      exit: { ...exited(1), missingModel },
    });
    expect(said.summary).toBe("gguf_init_from_file: failed to open GGUF file '/models/missing.gguf' (No such file or directory)");
    // A crash the log shows is the cause; an engine that served first did not die of a missing model.
    expect(classify([], { exit: { ...exited(null, "SIGSEGV"), missingModel } }).kind).toBe("fatal_signal");
    expect(classify([], { stage: "benchmark", exit: { ...exited(1), missingModel } }).kind).toBe("exited");
  });

  it("caps a runaway summary line", () => {
    const failure = classify([`RuntimeError: ${"x".repeat(5_000)}`]);
    expect(failure.summary.length).toBeLessThanOrEqual(1_000);
  });
});

describe("classifyFailure on a log flattened onto one line", () => {
  it("still finds CUDA graph capture and starts the summary at the exception", () => {
    // The old scorer joined the log's lines with spaces; the seed card came out like this.
    for (const line of [fixture("sglang-cuda-graph-oom.log").join(" "), fixture("sglang-cuda-graph-oom.log").slice(11).join(" ")]) {
      const failure = classify([line]);
      expect(failure.kind).toBe("cuda_oom");
      expect(failure.label).toBe("CUDA out of memory during CUDA graph capture");
      expect(failure.summary).toMatch(/^torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 136\.00 MiB/);
    }
  });
});
