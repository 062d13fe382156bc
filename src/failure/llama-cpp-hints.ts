import { literalForCodeSpans } from "../safe-text/render-inline-code.js";
import { type CrashHintInput, UNPLACED_CRASH } from "./failure-hints.js";
import type { OomPhase } from "./failure-patterns.js";
import { leftoverEngineAdvice } from "./failure-hints.js";

/*
 * What to try when llama.cpp's server fails, in its own flags (tools/server/README.md): a llama.cpp
 * card never tells its reader to lower --mem-fraction-static.
 */

/** The KV cache is n_ctx × layers × KV heads × head size × 2 (K and V) × the cache type's bytes, whatever the device. */
const KV_CACHE_SIZE =
  "The KV cache grows with the context: lower `-c` / `--ctx-size` (the total over all slots), use fewer slots (`-np` / " +
  "`--parallel`), or store it in 8 bits (`--cache-type-k q8_0 --cache-type-v q8_0`; a quantized V cache needs `-fa on`).";

export const LLAMA_CPP_HOST_ALLOC_HINT = [
  "ggml could not allocate a host buffer: the engine asked for more memory than the machine (or its limit: `docker.memory`, `ulimit " +
    "-v`) gives.",
  KV_CACHE_SIZE,
  "A -c far beyond the model's training context (the log's `n_ctx_seq > n_ctx_train` warning) only costs memory.",
].join(" ");

export const LLAMA_CPP_CUDA_OOM_HINTS: Record<OomPhase, string> = {
  kv_cache: [
    "cudaMalloc failed while allocating the KV cache on the GPU.",
    KV_CACHE_SIZE,
    "Or keep the cache in host memory (`-nkvo` / `--no-kv-offload`), or offload fewer layers (`-ngl`).",
    "Check `nvidia-smi` for another process on the same GPU.",
  ].join(" "),
  weights: [
    "cudaMalloc failed while loading the weights: the layers asked for by `-ngl` / `--n-gpu-layers` do not fit.",
    "Offload fewer layers (`-ngl 20`, the rest runs on the CPU), split across GPUs (`--split-mode layer --tensor-split 1,1`), or use " +
      "a smaller quantization (Q4_K_M).",
    "Check `nvidia-smi` for another process on the same GPU.",
  ].join(" "),
  // llama.cpp captures no CUDA graphs at start; what remains are the compute buffers a batch needs.
  graph_capture: [
    "cudaMalloc failed while reserving the compute buffers a batch needs.",
    "Lower the batch sizes (`-b` / `--batch-size`, `-ub` / `--ubatch-size`), the context (`-c`) or the slots (`-np`), or offload " +
      "fewer layers (`-ngl`).",
  ].join(" "),
  other: [
    "cudaMalloc failed. Lower the context (`-c`), the slots (`-np`) or the batch (`-b`, `-ub`), quantize the KV cache " +
      "(`--cache-type-k q8_0`), or offload fewer layers (`-ngl`).",
    "If the patch changed a kernel's buffers, it may simply need more memory than before. Check `nvidia-smi` for another process on " +
      "the same GPU.",
  ].join(" "),
};

export const LLAMA_CPP_GPU_OOM_HINT = [
  "The GPU backend (Metal or Vulkan) could not allocate a buffer.",
  "Offload fewer layers (`-ngl`; `-ngl 0` runs on the CPU), lower the context (`-c`) or the slots (`-np`), or quantize the KV cache " +
    "(`--cache-type-k q8_0`).",
  "On Apple silicon the GPU may use only part of the unified memory (`sysctl iogpu.wired_limit_mb` raises it).",
].join(" ");

export const LLAMA_CPP_HOST_OOM_KILLED_HINT = [
  "The kernel's OOM killer ended the engine: the host (or `docker.memory`) ran out of RAM.",
  "Lower `-c` and `-np`, quantize the KV cache (`--cache-type-k q8_0`), offload more layers to the GPU (`-ngl`), and check `dmesg` " +
    "for the OOM report.",
].join(" ");

export function llamaCppPortInUseHint(port: number | null, runtime: "process" | "docker" | null = null): string {
  const which = port === null ? "the port" : `port ${port}`;
  return (
    `llama-server could not bind ${which} (\`--host\`, \`--port\`): a previous engine that was not stopped, or another service, holds ` +
    `it. Find it with \`ss -ltnp\`, ${leftoverEngineAdvice(runtime)}, or give the command \`--host {host} --port {port}\` so it ` +
    `listens where the round config says.`
  );
}

export const LLAMA_CPP_INVALID_ARGUMENT_HINT =
  "llama-server refused its command line: a flag this build does not know (flags are renamed and removed between releases: " +
  "`--ctx-size` is `-c`, `-np` is `--parallel`) or a bad value. Run `llama-server --help` from the same build; a patch that removes " +
  "or renames a flag needs the round's command changed with it (`candidate.command`).";

export const LLAMA_CPP_MODEL_NOT_FOUND_HINT =
  "There is no GGUF file at the path `-m` names. Check the path inside the engine (with `runtime: docker`, mount the model folder " +
  "with `docker.mounts`), or let the round's command name the file the runner has; llama-server downloads nothing unless built with " +
  "network support (`-hf`).";

export const LLAMA_CPP_MODEL_LOAD_ERROR_HINT =
  "The file at `-m` is not a GGUF this build can load: a truncated or interrupted download (compare its size and sha256 with the " +
  "source), a file that is not GGUF (convert with `convert_hf_to_gguf.py`), a newer GGUF version or an architecture this llama.cpp " +
  "does not know (rebuild from a newer release). `gguf-py`'s `gguf_dump.py` reads the header without loading the weights.";

export function llamaCppStartupTimeoutHint(afterS: number): string {
  return (
    `llama-server printed no fatal error but \`/health\` did not answer 200 within ${afterS} s (it answers 503 while the model loads). ` +
    `Large models read from a slow disk take a while: raise \`health.timeoutS\`, serve the GGUF from the runner's disk ` +
    `(\`docker.mounts\`), or check the log tail for where it stalled (\`--fit\` tries contexts before loading; \`-fit off\` skips it).`
  );
}

export const LLAMA_CPP_EXITED_HINT =
  "llama-server stopped without an error speedgate recognises. Its first `E` line in the log tail is usually the cause; run the same " +
  "command by hand (add `-v` for more) to reproduce.";

/** llama.cpp's words for its own assertions (ggml's GGML_ASSERT and GGML_ABORT) and its crashes. */
export function llamaCppAssertionHint({ role, location }: CrashHintInput = UNPLACED_CRASH): string {
  const at = location ? ` at ${literalForCodeSpans(location)}` : "";
  if (role === "baseline") {
    return (
      `The unpatched llama-server stopped on its own GGML_ASSERT${at}: the round's flags are what it rejects, not the patch. The batch ` +
      `must hold what one decode takes (\`-b\` / \`--batch-size\` at least \`-ub\` and the slots \`-np\`), the context \`-c\` must ` +
      `hold \`-np\` slots; run the baseline's command by hand and change the flag the assertion names.`
    );
  }
  return (
    `llama-server stopped on its own GGML_ASSERT${at}: an invariant there no longer holds with the patch (a tensor shape, a batch or ` +
    `output count, a buffer size the changed code now produces). Read the expression and the frames above; build the patched tree with ` +
    `\`-DCMAKE_BUILD_TYPE=RelWithDebInfo\` and run the same command by hand (with gdb installed ggml prints a backtrace with files and ` +
    `lines) to see which caller broke it.`
  );
}

export function llamaCppFatalSignalHint({ role, location }: CrashHintInput = UNPLACED_CRASH): string {
  const at = location ? ` (first frame of its own: ${literalForCodeSpans(location)})` : "";
  if (role === "baseline") {
    return (
      `The unpatched llama-server died of a fatal signal${at}: the build, the machine (an instruction its CPU lacks: a build for ` +
      `another CPU) or the round's flags crash it without the patch. Run the baseline's command by hand under \`gdb -batch -ex run -ex ` +
      `bt --args …\`.`
    );
  }
  return (
    `llama-server died of a fatal signal${at}. A segmentation fault is a read or write through a bad pointer: an index, a size or a ` +
    `tensor stride the patched code computes wrongly, or a kernel given a shape it does not handle. Build the patched tree with ` +
    `\`-DCMAKE_BUILD_TYPE=RelWithDebInfo\` and run the same command under \`gdb -batch -ex run -ex bt --args …\` to see where.`
  );
}
