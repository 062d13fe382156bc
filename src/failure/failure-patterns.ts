/*
 * The shapes of engine failures, written for SGLang and vLLM (both Python on PyTorch). Messages are
 * matched after stripLogPrefix, so no pattern needs to know about timestamps or worker tags.
 */

import { anyOf } from "./any-of-patterns.js";

/** A Python exception line as a traceback ends: an unindented, possibly dotted, exception type. */
export const EXCEPTION_LINE = /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Failure))(?::\s?(.*))?$/;

export const TRACEBACK_START = /Traceback \(most recent call last\):/;
export const TRACEBACK_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (.+))?$/;

/** Wrappers that only point at an earlier error (vLLM's API server after its engine core died). */
export const WRAPPER_EXCEPTION = anyOf(
  [
    /See root cause above/,
    /Engine core initialization failed/,
    /core proc\(s\)/,
    /Worker failed/,
    /child process.*failed/,
    /Background process.*failed/,
    /died unexpectedly/,
  ],
  "i",
);

export const CUDA_OOM = anyOf(
  [
    /CUDA out of memory/,
    /OutOfMemoryError/,
    /CUDA error: out of memory/,
    /cudaErrorMemoryAllocation/,
    /CUBLAS_STATUS_ALLOC_FAILED/,
    /CUDNN_STATUS_ALLOC_FAILED/,
    /out of memory on device/,
    /No available memory for the cache blocks/,
    /larger than the maximum number of tokens that can be stored in KV cache/,
    /Not enough memory\. Please try to increase --mem-fraction-static/,
  ],
  "i",
);

/** OOM messages that name the KV cache themselves, whatever the traceback says. */
export const KV_CACHE_OOM_MESSAGE =
  /No available memory for the cache blocks|stored in KV cache|Not enough memory\. Please try to increase --mem-fraction-static|KV cache/i;

export const HOST_OOM =
  /Out of memory: Kill(?:ed)? process|oom-kill|oom_reaper|std::bad_alloc|^MemoryError\b|Cannot allocate memory(?!.*CUDA)/i;

export const NCCL_ERROR = anyOf(
  [
    /NCCL error/,
    /ncclInternalError/,
    /ncclSystemError/,
    /ncclUnhandledCudaError/,
    /ncclInvalidUsage/,
    /ncclInvalidArgument/,
    /ncclRemoteError/,
    /DistBackendError/,
    /ProcessGroupNCCL.*(?:timeout|timed out|error)/,
    /Watchdog caught collective operation timeout/,
    /NCCL (?:communicator|operation).*(?:failed|timed out|aborted)/,
  ],
  "i",
);

export const IMPORT_ERROR_TYPES = /^(?:ImportError|ModuleNotFoundError|SyntaxError|IndentationError|TabError|NameError)$/;

/** A module that loads but lacks what another imports from it: a rename or a circular import the patch made. */
export const MODULE_ATTRIBUTE_ERROR = /^AttributeError: (?:partially initialized )?module '[^']+' has no attribute/;

export const PORT_IN_USE = anyOf(
  [
    /EADDRINUSE/,
    /Address already in use/,
    /address already in use/,
    /\[Errno 98\]/,
    /port \d+ is (?:already )?in use/,
    /is already in use by another process/,
  ],
  "i",
);

export type OomPhase = "graph_capture" | "weights" | "kv_cache" | "other";

/** Traceback frames and stage messages that say what the engine was doing when memory ran out. */
export const OOM_PHASES: ReadonlyArray<{ phase: Exclude<OomPhase, "other">; pattern: RegExp }> = [
  {
    phase: "graph_capture",
    pattern: anyOf(
      [
        /cuda_graph/,
        /cudagraph/,
        /CudaGraph/,
        /capture_one/,
        /capture_model/,
        /\bcapture\b/,
        /graph_capture/,
        /torch\.cuda\.graph/,
        /Capture cuda graph/,
        /Capturing CUDA graph/,
        /Capturing cudagraph/,
        /piecewise/,
      ],
      "i",
    ),
  },
  {
    phase: "kv_cache",
    pattern: anyOf(
      [
        /kv_cache/,
        /KV cache/,
        /kv cache/,
        /init_memory_pool/,
        /memory_pool/,
        /profile_max_num_token/,
        /TokenToKVPool/,
        /KVPool/,
        /_allocate_kv_cache/,
        /initialize_kv_cache/,
        /initialize_from_config/,
        /determine_available_memory/,
        /cache blocks/,
        /init_cache_engine/,
        /CacheEngine/,
        /Memory pool/,
      ],
      "i",
    ),
  },
  {
    phase: "weights",
    pattern: anyOf(
      [
        /load_model/,
        /load_weights/,
        /weight_loader/,
        /model_loader/,
        /Load weight begin/,
        /Loading weights/,
        /Loading safetensors/,
        /safetensors/,
        /checkpoint shards/,
        /weight_utils/,
        /initialize_model/,
        /ModelRunner.__init__/,
      ],
      "i",
    ),
  },
];

/*
 * llama.cpp's server (C++ on ggml). Its lines are matched after stripLogPrefix too, so they read as
 * "<function>: <message>", as llama.cpp's own source prints them.
 */

/** tools/server/server-http.cpp: "couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 8080". */
export const LLAMA_CPP_PORT_IN_USE = /couldn't bind HTTP server socket/;

/**
 * ggml-cuda's allocator: "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1024.00 MiB on device 0: cudaMalloc failed: out of
 * memory".
 */
export const LLAMA_CPP_CUDA_OOM = /cudaMalloc failed: out of memory|cudaMallocManaged failed|hipMalloc failed: out of memory/i;

/** ggml-metal's and ggml-vulkan's allocators: GPU memory that is not CUDA's. */
export const LLAMA_CPP_OTHER_GPU_OOM = anyOf(
  [
    /ggml_metal\w*: error: failed to allocate buffer/,
    /ggml_backend_metal\w*: error: failed to allocate/,
    /ErrorOutOfDeviceMemory/,
    /vk::Device::allocateMemory/,
    /ggml_vk\w*: .*out of (?:device )?memory/,
  ],
  "i",
);

/** ggml on the CPU (ggml.c, ggml-backend.cpp): posix_memalign refused, so the buffer was never made. */
export const LLAMA_CPP_HOST_ALLOC = anyOf([
  /ggml_aligned_malloc: insufficient memory/,
  /failed to allocate CPU buffer/,
  /ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer/,
]);

/** What llama.cpp was allocating when memory ran out, said after the allocator's own line. */
export const LLAMA_CPP_KV_CACHE_ALLOC = /failed to allocate buffer for kv cache|llama_kv_cache\w*: failed to allocate/i;
export const LLAMA_CPP_WEIGHTS_ALLOC = /unable to allocate \S+ buffer|load_tensors: .*failed|error loading model: .*allocate/i;
export const LLAMA_CPP_COMPUTE_ALLOC = /failed to allocate compute|ggml_gallocr_reserve_n: failed to allocate|graph_reserve: failed/i;

/** common/arg.cpp: "error: invalid argument: --bogus" (older builds: "error: unknown argument: --bogus"), and a flag's bad value. */
export const LLAMA_CPP_INVALID_ARGUMENT = /^error: (?:invalid|unknown) argument: |^error while handling argument /;

/** argparse, as SGLang's and vLLM's launchers use it: "launch_server.py: error: unrecognized arguments: --bogus". */
export const ARGPARSE_INVALID_ARGUMENT =
  /: error: (?:unrecognized arguments: |argument -[-\w]+: (?:invalid|expected)|the following arguments are required)/;

/** gguf.cpp: "gguf_init_from_file: failed to open GGUF file '/models/m.gguf' (No such file or directory)". */
export const LLAMA_CPP_MODEL_NOT_FOUND = /failed to open GGUF file '.*' \((?:No such file or directory|Is a directory)\)/;

/** Hugging Face's loader, as SGLang and vLLM hit it offline or with a wrong path. */
export const HF_MODEL_NOT_FOUND =
  /is not a local folder and is not a valid model identifier|Repo id must be in the form|does not appear to have a file named config\.json/;

/** The GGUF reader's own reason (bad magic, a truncated file, an unknown version) and the loader's verdict. */
export const LLAMA_CPP_GGUF_ERROR = anyOf([
  /gguf_init_from_\w+: (?:invalid magic|failed to read|bad GGUF version|this GGUF file is version|GGUFv1 is no longer)/,
  /gguf_init_from_\w+: (?:tensor '.*' (?:has|of|with)|number of (?:tensors|key value)|key '.*' has invalid)/,
  /gguf_init_from_\w+: (?:duplicate (?:key|tensor)|string length)/,
  /gguf_init_from_file_impl: /,
]);
export const LLAMA_CPP_MODEL_LOAD_ERROR = anyOf([
  /error loading model: /,
  /unknown model architecture/,
  /wrong number of tensors/,
  /key not found in model/,
  /data is not within the file bounds/,
  /failed to load model from/,
]);
