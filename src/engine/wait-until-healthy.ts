import { Agent, request } from "undici";
import { classifyFailure } from "../failure/classify-failure.js";
import { EngineFailureError } from "../vocabulary/engine-failure.js";
import type { EngineFamily } from "../vocabulary/engine-family.js";
import { CANCELLED_HINT } from "../failure/failure-hints.js";
import { cleanLogLine } from "../safe-text/sanitize-log-tail.js";
import type { RunningEngine } from "./engine-runtime.js";
import type { EngineExit } from "../vocabulary/engine-exit.js";

export interface WaitUntilHealthyOptions {
  engine: RunningEngine;
  path: string;
  timeoutS: number;
  intervalMs: number;
  signal: AbortSignal;
  /** The engine the round names, for a failure's hint in its own flags. */
  engineFamily?: EngineFamily | null;
  /** The runtime that started it, for how a leftover engine on its port is cleared. */
  runtime?: "process" | "docker" | null;
}

/** No single health request may hold the loop longer than this, so a hung socket cannot hide an exit. */
const MAX_ATTEMPT_MS = 5_000;

export function cancelledFailure(engine: RunningEngine, stage: "startup" | "benchmark", reason: unknown): EngineFailureError {
  const message = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "cancelled";
  return new EngineFailureError({
    engine: engine.role,
    stage,
    kind: "cancelled",
    label: "cancelled",
    summary: message,
    hint: CANCELLED_HINT,
    exitCode: null,
    signal: null,
    logTail: engine.logTail().slice(-200).map(cleanLogLine),
  });
}

/**
 * Polls the health path until HTTP 200 while watching the engine's exit, so an engine that dies
 * while loading is reported right after it dies (with its last words), not at the timeout.
 */
export async function waitUntilHealthy(options: WaitUntilHealthyOptions): Promise<{ healthyAfterMs: number }> {
  const { engine, signal } = options;
  const started = performance.now();
  const deadline = started + options.timeoutS * 1000;
  const url = new URL(options.path, engine.baseUrl);
  const exitController = new AbortController();
  let exit: EngineExit | null = null;
  void engine.exited.then((value) => {
    exit = value;
    exitController.abort(new Error("engine exited"));
  });
  const dispatcher = new Agent({ keepAliveTimeout: 1_000, connect: { timeout: MAX_ATTEMPT_MS } });
  const wake = AbortSignal.any([signal, exitController.signal]);
  try {
    for (;;) {
      if (signal.aborted) throw cancelledFailure(engine, "startup", signal.reason);
      if (exit)
        throw new EngineFailureError(
          classifyFailure({
            role: engine.role,
            stage: "startup",
            exit,
            logLines: engine.logTail(),
            engine: options.engineFamily ?? null,
            runtime: options.runtime ?? null,
          }),
        );
      const now = performance.now();
      if (now >= deadline) {
        throw new EngineFailureError(
          classifyFailure({
            role: engine.role,
            stage: "startup",
            exit: null,
            logLines: engine.logTail(),
            timedOut: { afterS: options.timeoutS },
            engine: options.engineFamily ?? null,
            runtime: options.runtime ?? null,
          }),
        );
      }
      const attemptSignal = AbortSignal.any([wake, AbortSignal.timeout(Math.ceil(Math.max(1, Math.min(MAX_ATTEMPT_MS, deadline - now))))]);
      try {
        const response = await request(url, { method: "GET", dispatcher, signal: attemptSignal });
        await response.body.dump();
        if (response.statusCode === 200) return { healthyAfterMs: performance.now() - started };
      } catch {
        // Refused or reset while the engine loads: keep polling.
      }
      const pause = Math.min(options.intervalMs, Math.max(0, deadline - performance.now()));
      await sleepUnless(pause, wake);
    }
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

async function sleepUnless(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
