import { literalForCodeSpans } from "../safe-text/render-inline-code.js";
import type { OomPhase } from "./failure-patterns.js";

/*
 * What to try, in the flags of the engine the round runs. The round config's `engine` names it
 * (src/vocabulary/engine-family.ts); an engine the hints do not know (a fork with another name, the
 * reference engine) gets SGLang's and vLLM's flags side by side. llama.cpp's own hints are in
 * llama-cpp-hints.ts, and failure-hint-book.ts picks an engine's whole set.
 */

/** The Python engines whose own flags these hints name, or `any` for an engine the hints do not know. */
export type PythonHintFamily = "sglang" | "vllm" | "any";

/** What each family's hints say where the engine's own flags matter. */
export interface EngineHints {
  cudaOom: Record<OomPhase, string>;
  /** After "The host (not the GPU) ran out of memory …": how to load with fewer copies in host memory. */
  hostOomLoading: string;
  /** How to reproduce an import error without a GPU. */
  importCheck: string;
}

const SAME_GPU =
  "Another process on the same GPU shrinks the headroom: check `nvidia-smi` for leftovers (a previous engine, another job) before the run.";

export const ENGINE_HINTS: Record<PythonHintFamily, EngineHints> = {
  sglang: {
    cudaOom: {
      graph_capture: [
        "Memory ran out while capturing CUDA graphs, after the weights and the KV cache were allocated.",
        "Leave more room for the graphs: lower `--mem-fraction-static` (try 0.8, then 0.7) or `--cuda-graph-max-bs`,",
        "or run once with `--disable-cuda-graph` to confirm the graphs are what does not fit.",
        SAME_GPU,
      ].join(" "),
      weights: [
        "Memory ran out while loading the weights: the model does not fit on these GPUs at this precision.",
        "Use more GPUs (`--tp`), a quantized checkpoint (`--quantization fp8`, AWQ, GPTQ) or a smaller model.",
        SAME_GPU,
      ].join(" "),
      kv_cache: [
        "Memory ran out while sizing or allocating the KV cache.",
        "Lower `--mem-fraction-static`, cap the cache with `--max-total-tokens`, or shorten the context with `--context-length`.",
        SAME_GPU,
      ].join(" "),
      other: [
        "Lower the memory the engine reserves up front (`--mem-fraction-static`) to leave room for activations,",
        "and lower the batch it builds (`--max-running-requests`, `--chunked-prefill-size`).",
        "If the patch changed a kernel's workspace or buffers, it may simply need more memory than before.",
        SAME_GPU,
      ].join(" "),
    },
    hostOomLoading: "load the weights with fewer copies in host memory (`--load-format`, no `--enable-torch-compile`)",
    importCheck: 'Run `python -c "import sglang"` in the patched tree to reproduce it without a GPU.',
  },
  vllm: {
    cudaOom: {
      graph_capture: [
        "Memory ran out while capturing CUDA graphs, after the weights and the KV cache were allocated.",
        "Leave more room for the graphs: lower `--gpu-memory-utilization` (try 0.8, then 0.7) or the largest captured batch " +
          "(`--max-cudagraph-capture-size`),",
        "or run once with `--enforce-eager` to confirm the graphs are what does not fit.",
        SAME_GPU,
      ].join(" "),
      weights: [
        "Memory ran out while loading the weights: the model does not fit on these GPUs at this precision.",
        "Use more GPUs (`--tensor-parallel-size`), a quantized checkpoint (`--quantization fp8`, AWQ, GPTQ) or a smaller model.",
        SAME_GPU,
      ].join(" "),
      kv_cache: [
        "Memory ran out while sizing or allocating the KV cache.",
        "Lower `--gpu-memory-utilization`, or shorten the context with `--max-model-len`.",
        SAME_GPU,
      ].join(" "),
      other: [
        "Lower the memory the engine reserves up front (`--gpu-memory-utilization`) to leave room for activations,",
        "and lower the batch it builds (`--max-num-seqs`, `--max-num-batched-tokens`).",
        "If the patch changed a kernel's workspace or buffers, it may simply need more memory than before.",
        SAME_GPU,
      ].join(" "),
    },
    hostOomLoading: "load the weights with fewer copies in host memory (`--load-format`)",
    importCheck: 'Run `python -c "import vllm"` in the patched tree to reproduce it without a GPU.',
  },
  any: {
    cudaOom: {
      graph_capture: [
        "Memory ran out while capturing CUDA graphs, after the weights and the KV cache were allocated.",
        "Leave more room for the graphs: lower `--mem-fraction-static` (try 0.8, then 0.7; vLLM: `--gpu-memory-utilization`),",
        "lower `--cuda-graph-max-bs` (both the prefill and the decode graphs; vLLM: `--max-cudagraph-capture-size` or " +
          "`--cuda-graph-sizes`),",
        "or turn the prefill CUDA graph off (SGLang) / run with `--enforce-eager` (vLLM) to confirm.",
        SAME_GPU,
      ].join(" "),
      weights: [
        "Memory ran out while loading the weights: the model does not fit on these GPUs at this precision.",
        "Use more GPUs (`--tp` / `--tensor-parallel-size`), a quantized checkpoint (`--quantization fp8`, AWQ, GPTQ) or a smaller model.",
        SAME_GPU,
      ].join(" "),
      kv_cache: [
        "Memory ran out while sizing or allocating the KV cache.",
        "Lower `--mem-fraction-static` (SGLang) or `--gpu-memory-utilization` (vLLM), cap the cache with `--max-total-tokens` (SGLang),",
        "or shorten the context: `--context-length` (SGLang) / `--max-model-len` (vLLM).",
        SAME_GPU,
      ].join(" "),
      other: [
        "Lower the memory the engine reserves up front (`--mem-fraction-static` for SGLang, `--gpu-memory-utilization` for vLLM) to " +
          "leave room for activations,",
        "and lower the batch the engine builds (`--max-running-requests` / `--chunked-prefill-size` for SGLang, `--max-num-seqs` / " +
          "`--max-num-batched-tokens` for vLLM).",
        "If the patch changed a kernel's workspace or buffers, it may simply need more memory than before.",
        SAME_GPU,
      ].join(" "),
    },
    hostOomLoading:
      "load weights with fewer CPU copies (SGLang `--load-format` / vLLM `--load-format`, no `--enable-torch-compile` duplicates)",
    importCheck: 'Run `python -c "import sglang"` (or `import vllm`) in the patched tree to reproduce it without a GPU.',
  },
};

export function cudaOomHint(phase: OomPhase, family: PythonHintFamily = "any"): string {
  return ENGINE_HINTS[family].cudaOom[phase];
}

export function hostOomHint(family: PythonHintFamily = "any"): string {
  return [
    "The host (not the GPU) ran out of memory and the kernel's OOM killer ended the engine.",
    `Give the runner more RAM or a larger \`docker.memory\` limit, ${ENGINE_HINTS[family].hostOomLoading},`,
    "and check `dmesg` for the OOM report.",
  ].join(" ");
}

export const NCCL_HINT = [
  "Multi-GPU communication failed. Rerun with `NCCL_DEBUG=INFO` in the engine's env to see which transport broke.",
  "In containers give NCCL a large /dev/shm (`docker.shmSize` such as 16g); on machines without working peer-to-peer try " +
    "`NCCL_P2P_DISABLE=1`;",
  "check that every GPU in `--tp` is visible and idle (`nvidia-smi`).",
].join(" ");

export function importErrorHint(location: string | null, family: PythonHintFamily = "any"): string {
  // The location is the engine's traceback: its backticks must not open code spans on the card.
  const where = location ? `Look at ${literalForCodeSpans(location)}: ` : "";
  return (
    `${where}the engine's Python code does not import, most often because the patch left a syntax error, a missing import or a renamed ` +
    `symbol. ${ENGINE_HINTS[family].importCheck}`
  );
}

/**
 * How to clear a port left taken, by runtime: `speedgate cleanup --stale` removes containers only, so
 * a process round is pointed at the process itself (an engine of a speedgate that was killed outright).
 */
export function leftoverEngineAdvice(runtime: "process" | "docker" | null): string {
  if (runtime === "process")
    return "stop it (an engine left by a speedgate that was killed outright keeps its port: `ss -ltnp` names its process)";
  return "stop it (`speedgate cleanup --stale` removes the containers of interrupted runs)";
}

export function portInUseHint(port: number | null, runtime: "process" | "docker" | null = null): string {
  const which = port === null ? "the configured port" : `port ${port}`;
  return (
    `Something else is listening on ${which}: a previous engine that was not stopped, or another service. Find it with \`ss -ltnp\` ` +
    `(or \`lsof -i :${port ?? "PORT"}\`), ${leftoverEngineAdvice(runtime)}, or choose another port in the round config.`
  );
}

export function startupTimeoutHint(afterS: number): string {
  return (
    `The engine printed no fatal error but did not answer the health check within ${afterS} s. First runs download weights and compile ` +
    `kernels (torch.compile, DeepGEMM/FlashInfer JIT, CUDA graph capture of many sizes): raise \`health.timeoutS\`, serve the weights ` +
    `from the runner's disk (\`docker.mounts\`, read-only) or bake them into the image, or check the log tail for where it stalled.`
  );
}

export const EXITED_HINT =
  "The engine stopped without an error speedgate recognises. The log tail below shows its last words; run the same command by hand " +
  "to reproduce.";

export const CANCELLED_HINT = "The run was cancelled (SIGINT, SIGTERM or the job was stopped); nothing was measured after that.";

export const PATCH_CONFLICT_HINT =
  "The patch was made against different source than the baseline the round runs: rebase the pull request on that baseline (or point " +
  "candidate.sourceDir / the image at the commit the patch is based on) and run again.";

export const PATCH_TOOL_MISSING_HINT = "Install git or GNU patch where speedgate runs (apt-get install git), so the patch can be applied.";

export const BUILD_ERROR_HINT =
  "A postPatch step failed in the patched copy. Run the same command by hand in a patched checkout; its output is in the log tail below.";

export const INVALID_ARGUMENT_HINT =
  "The engine refused its command line: a flag this version does not know, or a bad value (flags are renamed between releases). Run " +
  "the same program with `--help` from the same image or checkout; a patch that renames a flag needs the round's command changed " +
  "with it (`candidate.command`).";

export const MODEL_NOT_FOUND_HINT =
  "The engine found no model where its command points. Check the path inside the engine (with `runtime: docker`, mount the weights " +
  "with `docker.mounts`, read-only); with `HF_HUB_OFFLINE=1` a model id must already be in the cache the engine sees.";

export const MODEL_LOAD_ERROR_HINT =
  "The model files are there but do not load: a truncated download, a format or architecture this engine version does not support, " +
  "or a mismatched config. Compare the files' sizes and checksums with the source, and load the same files with the unpatched engine.";

export const GPU_OOM_HINT =
  "A GPU backend other than CUDA (Metal, Vulkan) could not allocate a buffer: lower the context and the number of parallel " +
  "sequences, or keep part of the model on the CPU.";

/** What a crash's hint needs: who crashed, where (a file and line, or the first frame), and how. */
export interface CrashHintInput {
  role: "baseline" | "candidate";
  location: string | null;
  /** A CUDA kernel's assertion reaches Python late: CUDA_LAUNCH_BLOCKING=1 makes its stack true. */
  deviceAssert: boolean;
}

/** A candidate's crash with nowhere named: what a hint says when the log gave it nothing more. */
export const UNPLACED_CRASH: CrashHintInput = { role: "candidate", location: null, deviceAssert: false };

export function assertionHint({ role, location, deviceAssert }: CrashHintInput = UNPLACED_CRASH, family: PythonHintFamily = "any"): string {
  const at = location ? ` at ${literalForCodeSpans(location)}` : "";
  const launch = family === "vllm" ? "`vllm serve …`" : family === "sglang" ? "`python -m sglang.launch_server …`" : "the round's command";
  const blocking = deviceAssert
    ? " A CUDA kernel's assertion is reported at a later call: run once with `CUDA_LAUNCH_BLOCKING=1` (and `TORCH_USE_CUDA_DSA` " +
      "builds) in the engine's env so the traceback points at the kernel that failed."
    : "";
  if (role === "baseline") {
    return (
      `The unpatched baseline stopped on its own assertion${at}: the round's configuration (flags, model, batch and context sizes) is ` +
      `what the engine rejects, not the patch. Run ${launch} by hand with the baseline's flags and change the setting the assertion ` +
      `names.${blocking}`
    );
  }
  return (
    `The engine stopped on its own assertion${at}: an invariant there no longer holds with the patch (a shape, a batch size, an index ` +
    `or a state the changed code now produces). Read the assertion and the frames above, run ${launch} by hand with the patched code, ` +
    `and send the prompt it failed on.${blocking}`
  );
}

export function fatalSignalHint({ role, location }: CrashHintInput = UNPLACED_CRASH): string {
  const at = location ? ` (first frame of its own: ${literalForCodeSpans(location)})` : "";
  if (role === "baseline") {
    return (
      `The unpatched baseline died of a fatal signal${at}: the image, the driver or the round's configuration crashes it without the ` +
      `patch. Run the baseline's command by hand in the same image; \`python -X faulthandler\` or \`gdb -batch -ex run -ex bt --args ` +
      `…\` prints the stack.`
    );
  }
  return (
    `The engine died of a fatal signal${at}. A segmentation fault is a read or write through a bad pointer: most often an index, a ` +
    `size or a stride the patched code computes wrongly, or a kernel launched with shapes it does not handle. Run it by hand with the ` +
    `patched code under \`gdb -batch -ex run -ex bt --args …\` (native code) or with \`python -X faulthandler\` (both stacks) to see ` +
    `where.`
  );
}
