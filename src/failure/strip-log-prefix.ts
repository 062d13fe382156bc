import { MAX_LOG_LINE_CHARS, cleanLogLine, stripAnsi } from "../safe-text/sanitize-log-tail.js";

/*
 * Prefixes engines and their launchers put before the message. Stripped for matching and for the
 * summary only; the card's log tail keeps lines as printed.
 */
const PREFIXES: readonly RegExp[] = [
  // Docker --timestamps and ISO-ish stamps: 2026-09-17T14:11:47.123456789Z, 2026-09-17 14:11:47,123
  /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?(?:\s*[|-])? ?/,
  // SGLang: [2026-09-17 14:11:47], [2026-09-17 14:11:47 TP0], [2026-09-17 14:11:47 DP1 TP3]
  /^\[\d{4}-\d{2}-\d{2}[ T][\d:.,]+(?:\s+[A-Za-z]+\d*)*\] ?/,
  // vLLM: INFO 09-17 14:11:47 [gpu_model_runner.py:12] and older "INFO 09-17 14:11:47 loader.py:12] "
  /^(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+\d{2}-\d{2}\s+\d{2}:\d{2}:\d{2}(?:\.\d+)?\s+(?:\[[^\]]*\]|\S+:\d+\]) ?/,
  // Worker processes: (EngineCore_DP0 pid=123), (VllmWorker rank=0 pid=123), (RayWorkerWrapper pid=1, ip=10.0.0.1), (pid=123)
  /^\((?:[A-Za-z_][\w-]*(?:\s+[\w-]+=[^\s,)]+,?)+|pid=\d+(?:,?\s*[\w-]+=[^\s,)]+)*)\) ?/,
  // torch.distributed workers: [rank1]: …
  /^\[rank\d+\]: ?/,
  // uvicorn and plain level tags: "ERROR:    [Errno 98] …", "[ERROR] …"
  /^(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL):\s+/,
  /^\[(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\]\s+/,
  // llama.cpp (common/log.cpp): elapsed time and level, "0.00.013.024 E ", or the level alone without timestamps.
  /^\d+\.\d{2}\.\d{3}\.\d{3} [DIWE] /,
  /^[DIWE] (?=(?:srv|cmn|slot|que|res) |[a-z_]\w*: )/,
  // llama-server's own tags before the padded function name: "srv    load_model: …", "slot launch_slot_: id  0 | …".
  /^(?:srv|cmn|slot|que|res) +(?=[\w:]+: )/,
];

/** A printed line reduced to its message: ANSI colours, timestamps, levels and worker tags removed. */
export function stripLogPrefix(line: string): string {
  // Matching needs the whole line: a flattened traceback puts the error thousands of characters in.
  let message = line.length > MAX_LOG_LINE_CHARS ? stripAnsi(line) : cleanLogLine(line);
  for (let round = 0; round < 6; round++) {
    const before = message;
    for (const prefix of PREFIXES) message = message.replace(prefix, "");
    if (message === before) break;
  }
  return message;
}
