import type { EngineFamily } from "../vocabulary/engine-family.js";
import {
  EXITED_HINT,
  GPU_OOM_HINT,
  INVALID_ARGUMENT_HINT,
  MODEL_LOAD_ERROR_HINT,
  MODEL_NOT_FOUND_HINT,
  type CrashHintInput,
  type PythonHintFamily,
  assertionHint,
  cudaOomHint,
  fatalSignalHint,
  hostOomHint,
  importErrorHint,
  portInUseHint,
  startupTimeoutHint,
} from "./failure-hints.js";
import type { OomPhase } from "./failure-patterns.js";
import {
  LLAMA_CPP_CUDA_OOM_HINTS,
  LLAMA_CPP_EXITED_HINT,
  LLAMA_CPP_GPU_OOM_HINT,
  LLAMA_CPP_HOST_ALLOC_HINT,
  LLAMA_CPP_HOST_OOM_KILLED_HINT,
  LLAMA_CPP_INVALID_ARGUMENT_HINT,
  LLAMA_CPP_MODEL_LOAD_ERROR_HINT,
  LLAMA_CPP_MODEL_NOT_FOUND_HINT,
  llamaCppAssertionHint,
  llamaCppFatalSignalHint,
  llamaCppPortInUseHint,
  llamaCppStartupTimeoutHint,
} from "./llama-cpp-hints.js";

/** The hints of every kind the classifier decides from a log, in one engine's words. */
export interface FailureHintBook {
  cudaOom(phase: OomPhase): string;
  gpuOom: string;
  /** The engine asked for memory and was refused (it exits with an error). */
  hostAlloc: string;
  /** The kernel's OOM killer ended it. */
  hostOomKilled: string;
  portInUse(port: number | null, runtime: "process" | "docker" | null): string;
  startupTimeout(afterS: number): string;
  invalidArgument: string;
  modelNotFound: string;
  modelLoadError: string;
  exited: string;
  /** A Python traceback at import: where it broke, and how to reproduce it without a GPU. */
  importError(location: string | null): string;
  /** The engine's own assertion or abort: an invariant the patch broke there, or for a baseline its configuration. */
  assertion(crash: CrashHintInput): string;
  /** A segmentation fault or another fatal signal. */
  fatalSignal(crash: CrashHintInput): string;
}

/** SGLang's or vLLM's hints, or both engines' flags side by side for an engine speedgate does not know. */
function pythonEngineHints(family: PythonHintFamily): FailureHintBook {
  return {
    cudaOom: (phase) => cudaOomHint(phase, family),
    gpuOom: GPU_OOM_HINT,
    hostAlloc: hostOomHint(family),
    hostOomKilled: hostOomHint(family),
    portInUse: portInUseHint,
    startupTimeout: startupTimeoutHint,
    invalidArgument: INVALID_ARGUMENT_HINT,
    modelNotFound: MODEL_NOT_FOUND_HINT,
    modelLoadError: MODEL_LOAD_ERROR_HINT,
    exited: EXITED_HINT,
    importError: (location) => importErrorHint(location, family),
    assertion: (crash) => assertionHint(crash, family),
    fatalSignal: fatalSignalHint,
  };
}

const BOOKS: Record<PythonHintFamily, FailureHintBook> = {
  sglang: pythonEngineHints("sglang"),
  vllm: pythonEngineHints("vllm"),
  any: pythonEngineHints("any"),
};

const LLAMA_CPP: FailureHintBook = {
  cudaOom: (phase) => LLAMA_CPP_CUDA_OOM_HINTS[phase],
  gpuOom: LLAMA_CPP_GPU_OOM_HINT,
  hostAlloc: LLAMA_CPP_HOST_ALLOC_HINT,
  hostOomKilled: LLAMA_CPP_HOST_OOM_KILLED_HINT,
  portInUse: llamaCppPortInUseHint,
  startupTimeout: llamaCppStartupTimeoutHint,
  invalidArgument: LLAMA_CPP_INVALID_ARGUMENT_HINT,
  modelNotFound: LLAMA_CPP_MODEL_NOT_FOUND_HINT,
  modelLoadError: LLAMA_CPP_MODEL_LOAD_ERROR_HINT,
  exited: LLAMA_CPP_EXITED_HINT,
  // llama.cpp is C++: a Python import error is not its own, so the generic hint.
  importError: (location) => importErrorHint(location),
  assertion: llamaCppAssertionHint,
  fatalSignal: llamaCppFatalSignalHint,
};

/** The hints in the words of the engine that failed. */
export function failureHintBook(family: EngineFamily | null): FailureHintBook {
  if (family === "llama.cpp") return LLAMA_CPP;
  return BOOKS[family ?? "any"];
}
