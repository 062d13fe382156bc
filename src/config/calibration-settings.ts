import { createHash } from "node:crypto";
import { isAbsolute, relative } from "node:path";
import type { RoundConfig } from "./round-config-schema.js";
import type { CalibrationSettings } from "../calibration/calibration-schema.js";
import { calibrationRunsOf } from "./run-plan.js";

/** The settings of a round that its noise depends on, as a calibration records them. */
export function calibrationSettingsOf(config: RoundConfig, promptCount: number): CalibrationSettings {
  const { bench } = config;
  return {
    requestIntervalMs: bench.requestIntervalMs,
    arrival: bench.arrival,
    concurrency: bench.concurrency,
    seed: bench.seed,
    thinking: bench.thinking,
    contextLimit: bench.contextLimit,
    maxTokens: bench.maxTokens,
    tolerance: bench.tolerance,
    model: bench.model,
    runs: calibrationRunsOf(bench.runs),
    order: bench.order,
    clientWarmup: bench.clientWarmup,
    warmupRequests: bench.warmupRequests,
    prompts: promptCount,
  };
}

/**
 * sha256 of what the baseline engine is: its image or build, command, environment and folder, with
 * paths relative to the config's folder so the same repository on another runner hashes the same.
 * A change to any of them (a new flag, another image) is another engine with another noise.
 */
export function hashBaseline(config: RoundConfig, configDir: string): string {
  const portable = (path: string | undefined): string | null =>
    path === undefined ? null : isAbsolute(path) ? relative(configDir, path) || "." : path;
  const { baseline } = config;
  const definition = {
    runtime: config.runtime,
    image: baseline.image ?? null,
    build: baseline.build ? { ...baseline.build, context: portable(baseline.build.context) } : null,
    command: baseline.command ?? null,
    cwd: config.runtime === "process" ? portable(baseline.cwd) : (baseline.cwd ?? null),
    env: Object.fromEntries(Object.entries(baseline.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  return createHash("sha256").update(JSON.stringify(definition)).digest("hex");
}
