import type { EngineFamily } from "../engine/engine-family.js";
import {
  CUDA_OOM_HINTS,
  EXITED_HINT,
  GPU_OOM_HINT,
  HOST_OOM_HINT,
  INVALID_ARGUMENT_HINT,
  MODEL_LOAD_ERROR_HINT,
  MODEL_NOT_FOUND_HINT,
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
  portInUse(port: number | null): string;
  startupTimeout(afterS: number): string;
  invalidArgument: string;
  modelNotFound: string;
  modelLoadError: string;
  exited: string;
}

/** SGLang and vLLM (and an engine speedgate does not know): the hints name both Python engines' flags. */
const PYTHON_ENGINES: FailureHintBook = {
  cudaOom: (phase) => CUDA_OOM_HINTS[phase],
  gpuOom: GPU_OOM_HINT,
  hostAlloc: HOST_OOM_HINT,
  hostOomKilled: HOST_OOM_HINT,
  portInUse: portInUseHint,
  startupTimeout: startupTimeoutHint,
  invalidArgument: INVALID_ARGUMENT_HINT,
  modelNotFound: MODEL_NOT_FOUND_HINT,
  modelLoadError: MODEL_LOAD_ERROR_HINT,
  exited: EXITED_HINT,
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
};

/** The hints in the words of the engine that failed. */
export function failureHintBook(family: EngineFamily | null): FailureHintBook {
  return family === "llama.cpp" ? LLAMA_CPP : PYTHON_ENGINES;
}
