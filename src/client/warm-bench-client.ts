import type { Prompt } from "../prompts/prompt.js";
import { startSimEngine } from "../sim-engine/start-sim-engine.js";
import { createBenchAgent } from "./create-bench-agent.js";
import { sendStreamingRequest } from "./send-streaming-request.js";

/** Streams sent through the client before any engine is measured: enough for the code on their path to be compiled. */
const WARMUP_STREAMS = 64;
/** Sent this many at a time, as a round's overlapping requests are. */
const WARMUP_CONCURRENCY = 8;
/** Tokens in each: thousands of chunks in all go through the parser and the stream state. */
const WARMUP_TOKENS = 64;

let warmed: Promise<void> | null = null;
let warm = false;

/** Whether this process's client has been warmed (warmBenchClient finished). */
export function isBenchClientWarm(): boolean {
  return warm;
}

/**
 * Runs the benchmark client's code (HTTP, socket stamping, SSE parsing, the stream state) over
 * streams from an in-process reference engine, once per process, before the first measured request.
 * A fresh process runs that code cold: the first engine benchmarked in a `speedgate run` (the
 * baseline) paid for it on its first requests and the candidate did not, so a fresh round scored an
 * unchanged engine 0.6–0.8% faster than the later A/A rounds of a `speedgate calibrate` in one
 * process did. Warming against a local stub rather than the engine leaves the engines untouched:
 * both are measured exactly as before, and a calibration and a round start from the same client.
 * A round warms before any engine starts (runRound), so the warm-up's own garbage and closing
 * sockets are long gone when the first measured request leaves: warmed right before the baseline's
 * benchmark, the first run still favoured the candidate by 2% end to end.
 */
export function warmBenchClient(): Promise<void> {
  warmed ??= runWarmup()
    .then(() => void (warm = true))
    .catch(() => {
      // A warm-up that cannot run (no loopback port) costs only the evenness it was for: the round goes on.
      warmed = null;
    });
  return warmed;
}

async function runWarmup(): Promise<void> {
  const engine = await startSimEngine({ profile: { defaults: { ttftMs: 0, itlMs: 0, outputTokens: WARMUP_TOKENS } }, keepRecords: false });
  const dispatcher = createBenchAgent();
  try {
    const prompts: Prompt[] = [
      { id: "client-warmup-chat", messages: [{ role: "user", content: "warm the client" }] },
      { id: "client-warmup-text", prompt: "warm the client" },
    ];
    for (let sent = 0; sent < WARMUP_STREAMS; sent += WARMUP_CONCURRENCY) {
      await Promise.all(
        Array.from({ length: WARMUP_CONCURRENCY }, (_, index) =>
          sendStreamingRequest({
            baseUrl: engine.url,
            prompt: prompts[(sent + index) % prompts.length] as Prompt,
            settings: { model: "default", maxTokens: WARMUP_TOKENS, thinking: false, requestTimeoutS: 10 },
            dispatcher,
          }),
        ),
      );
    }
  } finally {
    await dispatcher.destroy().catch(() => undefined);
    await engine.close();
  }
}
