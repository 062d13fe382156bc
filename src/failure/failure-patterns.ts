/*
 * The shapes of engine failures, written for SGLang and vLLM (both Python on PyTorch). Messages are
 * matched after stripLogPrefix, so no pattern needs to know about timestamps or worker tags.
 */

/** A Python exception line as a traceback ends: an unindented, possibly dotted, exception type. */
export const EXCEPTION_LINE = /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Failure))(?::\s?(.*))?$/;

export const TRACEBACK_START = /Traceback \(most recent call last\):/;
export const TRACEBACK_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+))?$/;

/** Wrappers that only point at an earlier error (vLLM's API server after its engine core died). */
export const WRAPPER_EXCEPTION =
  /See root cause above|Engine core initialization failed|core proc\(s\)|Worker failed|child process.*failed|Background process.*failed|died unexpectedly/i;

export const CUDA_OOM =
  /CUDA out of memory|OutOfMemoryError|CUDA error: out of memory|cudaErrorMemoryAllocation|CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED|out of memory on device|No available memory for the cache blocks|larger than the maximum number of tokens that can be stored in KV cache|Not enough memory\. Please try to increase --mem-fraction-static/i;

/** OOM messages that name the KV cache themselves, whatever the traceback says. */
export const KV_CACHE_OOM_MESSAGE =
  /No available memory for the cache blocks|stored in KV cache|Not enough memory\. Please try to increase --mem-fraction-static|KV cache/i;

export const HOST_OOM = /Out of memory: Kill(?:ed)? process|oom-kill|oom_reaper|std::bad_alloc|^MemoryError\b|Cannot allocate memory(?!.*CUDA)/i;

export const NCCL_ERROR =
  /NCCL error|ncclInternalError|ncclSystemError|ncclUnhandledCudaError|ncclInvalidUsage|ncclInvalidArgument|ncclRemoteError|DistBackendError|ProcessGroupNCCL.*(?:timeout|timed out|error)|Watchdog caught collective operation timeout|NCCL (?:communicator|operation).*(?:failed|timed out|aborted)/i;

export const IMPORT_ERROR_TYPES = /^(?:ImportError|ModuleNotFoundError|SyntaxError|IndentationError|TabError|NameError)$/;

/** A module that loads but lacks what another imports from it: a rename or a circular import the patch made. */
export const MODULE_ATTRIBUTE_ERROR = /^AttributeError: (?:partially initialized )?module '[^']+' has no attribute/;

export const PORT_IN_USE =
  /EADDRINUSE|Address already in use|address already in use|\[Errno 98\]|port \d+ is (?:already )?in use|is already in use by another process/i;

export type OomPhase = "graph_capture" | "weights" | "kv_cache" | "other";

/** Traceback frames and stage messages that say what the engine was doing when memory ran out. */
export const OOM_PHASES: ReadonlyArray<{ phase: Exclude<OomPhase, "other">; pattern: RegExp }> = [
  {
    phase: "graph_capture",
    pattern:
      /cuda_graph|cudagraph|CudaGraph|capture_one|capture_model|\bcapture\b|graph_capture|torch\.cuda\.graph|Capture cuda graph|Capturing CUDA graph|Capturing cudagraph|piecewise/i,
  },
  {
    phase: "kv_cache",
    pattern:
      /kv_cache|KV cache|kv cache|init_memory_pool|memory_pool|profile_max_num_token|TokenToKVPool|KVPool|_allocate_kv_cache|initialize_kv_cache|initialize_from_config|determine_available_memory|cache blocks|init_cache_engine|CacheEngine|Memory pool/i,
  },
  {
    phase: "weights",
    pattern: /load_model|load_weights|weight_loader|model_loader|Load weight begin|Loading weights|Loading safetensors|safetensors|checkpoint shards|weight_utils|initialize_model|ModelRunner.__init__/i,
  },
];
