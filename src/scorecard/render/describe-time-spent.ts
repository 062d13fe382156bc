import { formatPercent } from "../../scoring/format-speedup.js";
import type { EngineTimeSpent, TimeSpent } from "../scorecard-schema.js";

/** A span as people say it: "40 ms", "1.4 s", "12 s", "4 min 12 s", "5 min", "1 h 3 min". */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return seconds % 60 === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Everything one engine spent, starts to stops. */
function engineTotalMs(engine: EngineTimeSpent): number {
  return engine.startMs + engine.warmupMs + engine.benchmarkMs + (engine.qualityMs ?? 0) + engine.stopMs;
}

/** A part against the round's whole: "12 min 24 s (39%)"; the share is left out of a round that took no time. */
function withShare(ms: number, totalMs: number): string {
  return totalMs > 0 ? `${formatDuration(ms)} (${formatPercent(ms / totalMs)})` : formatDuration(ms);
}

export interface TimeSpentDescription {
  /** A header row, then one row per engine: starts, starting, warm-up, benchmark, stopping, in all. */
  rows: string[][];
  /** The round's whole and its parts, in words, with what the starts buy. */
  sentence: string;
  /** The starts' share of the round in a few words, for a fold's summary: "engine starts 39% of 32 min 10 s". */
  brief: string;
}

/**
 * Where the round's time went, per engine and in all. On a GPU runner an 8B model takes minutes to
 * load and capture its CUDA graphs, and every run starts each engine again: the starts are often
 * the largest part of a round, and the part that bench.runs multiplies, so their share is said.
 */
export function describeTimeSpent(timeSpent: TimeSpent): TimeSpentDescription {
  const { baseline, candidate, totalMs, prepareMs } = timeSpent;
  // A round with a question set (quality:) shows its time apart: answered in the same starts, after the bench.
  const qualityMs = (baseline.qualityMs ?? 0) + (candidate.qualityMs ?? 0);
  const quality = baseline.qualityMs !== undefined || candidate.qualityMs !== undefined;
  const engineRow = (name: string, engine: EngineTimeSpent): string[] => [
    name,
    String(engine.starts),
    engine.starts > 1
      ? `${formatDuration(engine.startMs)} (${formatDuration(engine.startMs / engine.starts)} each)`
      : formatDuration(engine.startMs),
    formatDuration(engine.warmupMs),
    formatDuration(engine.benchmarkMs),
    ...(quality ? [formatDuration(engine.qualityMs ?? 0)] : []),
    formatDuration(engine.stopMs),
    formatDuration(engineTotalMs(engine)),
  ];
  const rows = [
    ["Engine", "Starts", "Starting (until healthy)", "Warm-up", "Benchmark", ...(quality ? ["Quality set"] : []), "Stopping", "In all"],
    engineRow("Baseline", baseline),
    engineRow("Candidate", candidate),
  ];
  const starts = baseline.startMs + candidate.startMs;
  const parts = [
    `preparing (patch and build) ${withShare(prepareMs, totalMs)}`,
    `engine starts ${withShare(starts, totalMs)}`,
    `warm-up ${formatDuration(baseline.warmupMs + candidate.warmupMs)}`,
    `benchmarking ${withShare(baseline.benchmarkMs + candidate.benchmarkMs, totalMs)}`,
    ...(quality ? [`answering the quality set ${withShare(qualityMs, totalMs)}`] : []),
    `stopping ${formatDuration(baseline.stopMs + candidate.stopMs)}`,
  ];
  const most = Math.max(baseline.starts, candidate.starts);
  const why =
    most > 1
      ? `Each run starts each engine once, whatever the number of scenarios: ${most} runs cost ${most} starts of each engine, and buy ` +
        `an interval that sees how much engine starts differ in speed (with a calibration of the runner, fewer runs hold).`
      : "Each engine started once: one run sees nothing of how much engine starts differ in speed.";
  const brief =
    totalMs > 0
      ? `engine starts ${formatPercent(starts / totalMs)} of ${formatDuration(totalMs)}`
      : `engine starts ${formatDuration(starts)}`;
  return { rows, sentence: `The round took ${formatDuration(totalMs)}: ${parts.join(", ")}. ${why}`, brief };
}
