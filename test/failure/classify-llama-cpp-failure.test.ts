import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ClassifyInput, classifyFailure } from "../../src/failure/classify-failure.js";
import { stripLogPrefix } from "../../src/failure/strip-log-prefix.js";

/*
 * llama.cpp's server, from logs it printed: the host-memory, port, argument, missing-model and bad-GGUF
 * fixtures are this machine's llama-server (see ../../docs/engines.md); the CUDA and Metal ones follow
 * the lines ggml-cuda and ggml-metal print (their format strings), since no GPU is here.
 */

function fixture(name: string): string[] {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")
    .replace(/\n$/, "")
    .split("\n");
}

function classify(logLines: string[], overrides: Partial<ClassifyInput> = {}) {
  return classifyFailure({
    role: "candidate",
    stage: "startup",
    exit: { exitCode: 1, signal: null, oomKilled: false },
    logLines,
    engine: "llama.cpp",
    ...overrides,
  });
}

/** No hint on a llama.cpp card may send its reader to SGLang's or vLLM's flags. */
const PYTHON_ENGINE_FLAGS =
  /--mem-fraction-static|--gpu-memory-utilization|--max-model-len|--cuda-graph-max-bs|--enforce-eager|--tp\b|sglang|vllm/i;

describe("classifyFailure on llama.cpp's server", () => {
  it.each([
    ["llama-cpp-port-in-use.log", "port_in_use", "start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 18481", /--port/],
    ["llama-cpp-invalid-argument.log", "invalid_argument", "error: invalid argument: --bogus-flag", /llama-server --help/],
    [
      "llama-cpp-model-not-found.log",
      "model_not_found",
      "gguf_init_from_file: failed to open GGUF file '/models/missing.gguf' (No such file or directory)",
      /-m/,
    ],
    ["llama-cpp-truncated-gguf.log", "model_load_error", "gguf_init_from_reader: failed to read key-value pairs", /truncated/],
    ["llama-cpp-bad-magic.log", "model_load_error", /^gguf_init_from_reader: invalid magic characters: '.*', expected 'GGUF'$/, /GGUF/],
    [
      "llama-cpp-kv-cache-host-alloc.log",
      "host_oom",
      "llama_init_from_model: failed to initialize the context: failed to allocate buffer for kv cache (attempted to allocate 3906.25 MB)",
      /`-c`.*`-np`.*--cache-type-k q8_0/,
    ],
    [
      "llama-cpp-cuda-kv-cache-oom.log",
      "cuda_oom",
      "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 18432.00 MiB on device 0: cudaMalloc failed: out of memory",
      /KV cache.*`-c`.*-ngl/,
    ],
    ["llama-cpp-cuda-weights-oom.log", "cuda_oom", /cudaMalloc failed: out of memory$/, /-ngl/],
    ["llama-cpp-cuda-compute-oom.log", "cuda_oom", /cudaMalloc failed: out of memory$/, /-ub/],
    [
      "llama-cpp-metal-kv-cache-oom.log",
      "gpu_oom",
      "ggml_metal_buffer_init: error: failed to allocate buffer, size = 18432.00 MiB",
      /-ngl/,
    ],
  ] as const)("%s: kind %s, a summary without the time and level, a hint in llama.cpp's flags", (name, kind, summary, hint) => {
    const failure = classify(fixture(name));
    expect(failure.kind).toBe(kind);
    if (typeof summary === "string") expect(failure.summary).toBe(summary);
    else expect(failure.summary).toMatch(summary);
    expect(failure.summary).not.toMatch(/^\d+\.\d{2}\.\d{3}\.\d{3}|^[DIWE] |^srv /);
    expect(failure.hint).toMatch(hint);
    expect(failure.hint).not.toMatch(PYTHON_ENGINE_FLAGS);
    // The tail keeps the lines as printed, prefixes and all.
    expect(failure.logTail).toEqual(fixture(name));
  });

  it("tells the phase of a CUDA out of memory from the line llama.cpp prints after the allocator's", () => {
    expect(classify(fixture("llama-cpp-cuda-kv-cache-oom.log")).label).toBe("CUDA out of memory while allocating the KV cache");
    expect(classify(fixture("llama-cpp-cuda-weights-oom.log")).label).toBe("CUDA out of memory while loading weights");
    expect(classify(fixture("llama-cpp-cuda-compute-oom.log")).label).toBe("CUDA out of memory while reserving compute buffers");
  });

  it("knows llama.cpp by its log when the config's engine is a name it does not know", () => {
    const failure = classify(fixture("llama-cpp-port-in-use.log"), { engine: null });
    expect(failure.kind).toBe("port_in_use");
    expect(failure.hint).toContain("llama-server");
  });

  it("keeps SGLang's and vLLM's hints for the same kinds on their cards", () => {
    const failure = classify(
      ["ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use"],
      { engine: "sglang" },
    );
    expect(failure.kind).toBe("port_in_use");
    expect(failure.hint).not.toContain("llama-server");
  });

  it("calls an argparse refusal of SGLang's or vLLM's launcher an invalid argument", () => {
    const failure = classify(
      ["usage: launch_server.py [-h] --model-path MODEL_PATH", "launch_server.py: error: unrecognized arguments: --bogus"],
      { engine: "sglang", exit: { exitCode: 2, signal: null, oomKilled: false } },
    );
    expect(failure).toMatchObject({ kind: "invalid_argument", summary: "launch_server.py: error: unrecognized arguments: --bogus" });
  });

  it("summarises an unknown llama.cpp exit by its first error line, not the 'exiting due to' that ends every log", () => {
    const lines = [
      "0.00.004.556 I srv    load_model: loading model '/models/m.gguf'",
      "0.00.004.601 E common_fit_params: encountered an error while trying to fit params to free device memory: failed to load model",
      "0.00.004.624 E llama_model_loader: some new failure nobody has seen",
      "0.00.006.208 E srv  llama_server: exiting due to model loading error",
    ];
    expect(classify(lines)).toMatchObject({ kind: "exited", summary: "llama_model_loader: some new failure nobody has seen" });
  });

  it("a startup timeout gets llama.cpp's health behaviour in its hint", () => {
    const failure = classify(["0.00.011.079 I srv    load_model: loading model '/models/m.gguf'"], {
      exit: null,
      timedOut: { afterS: 60 },
    });
    expect(failure).toMatchObject({ kind: "startup_timeout", summary: "load_model: loading model '/models/m.gguf'" });
    expect(failure.hint).toContain("503");
  });
});

describe("stripLogPrefix", () => {
  it.each([
    ["0.00.013.024 E srv    load_model: failed to load model, '/m.gguf'", "load_model: failed to load model, '/m.gguf'"],
    ["12.03.000.001 W llama_context: n_ctx_seq (4000000) > n_ctx_train (8192)", "llama_context: n_ctx_seq (4000000) > n_ctx_train (8192)"],
    [
      "0.01.670.313 I slot print_timing: id  3 | task 0 | prompt eval time =      17.77 ms",
      "print_timing: id  3 | task 0 | prompt eval time =      17.77 ms",
    ],
    ["E srv  llama_server: exiting due to HTTP server error", "llama_server: exiting due to HTTP server error"],
    [
      "\u001b[34m0.00.009.768\u001b[0m \u001b[31mE srv         start: couldn't bind HTTP server socket",
      "start: couldn't bind HTTP server socket",
    ],
    // Docker's --timestamps before llama.cpp's own prefix.
    [
      "2026-09-17T14:11:47.123456789Z 0.00.013.024 E gguf_init_from_file: failed to open GGUF file",
      "gguf_init_from_file: failed to open GGUF file",
    ],
    // vLLM's and SGLang's, as before.
    ["(APIServer pid=1) ERROR 09-17 14:11:47 [api_server.py:12] ValueError: x", "ValueError: x"],
    ["[2026-09-17 14:11:47 TP0] Scheduler hit an exception", "Scheduler hit an exception"],
  ])("%s", (line, message) => {
    expect(stripLogPrefix(line)).toBe(message);
  });

  it("leaves a sentence that only starts with a capital letter alone", () => {
    expect(stripLogPrefix("I see no model here")).toBe("I see no model here");
    expect(stripLogPrefix("E = mc^2")).toBe("E = mc^2");
  });
});
