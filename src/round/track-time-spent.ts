import type { EngineTimeSpent, TimeSpent } from "../scorecard/scorecard-schema.js";
import type { EngineRole } from "../vocabulary/engine-failure.js";

type EnginePart = Exclude<keyof EngineTimeSpent, "starts">;

export interface TimeSpentTracker {
  /** One more start of this engine (counted when it is asked to start, whether or not it comes up). */
  started(role: EngineRole): void;
  add(role: EngineRole, part: EnginePart, ms: number): void;
  addPrepare(ms: number): void;
  /** The round's timeSpent, its total measured up to now. */
  finish(): TimeSpent;
}

const floor1 = (ms: number): number => Math.floor(Math.max(0, ms) * 10) / 10;

/**
 * Adds up where a round's time goes, per engine, so a card can show what scenarios cost: one set of
 * engine starts for every scenario, and each scenario's warm-up and benchmark.
 */
export function trackTimeSpent(now: () => number): TimeSpentTracker {
  const startedAt = now();
  let prepareMs = 0;
  const empty = (): Required<EngineTimeSpent> => ({ starts: 0, startMs: 0, warmupMs: 0, benchmarkMs: 0, stopMs: 0, qualityMs: 0 });
  const engines: Record<EngineRole, Required<EngineTimeSpent>> = { baseline: empty(), candidate: empty() };
  const rounded = (spent: Required<EngineTimeSpent>): EngineTimeSpent => ({
    starts: spent.starts,
    startMs: floor1(spent.startMs),
    warmupMs: floor1(spent.warmupMs),
    benchmarkMs: floor1(spent.benchmarkMs),
    stopMs: floor1(spent.stopMs),
    // Only a round that answered a question set spent any: other cards read as before.
    ...(spent.qualityMs > 0 ? { qualityMs: floor1(spent.qualityMs) } : {}),
  });
  return {
    started: (role) => void engines[role].starts++,
    add: (role, part, ms) => void (engines[role][part] += Math.max(0, ms)),
    addPrepare: (ms) => void (prepareMs += Math.max(0, ms)),
    // Rounded down for the parts, the total up: rounding cannot make the parts add up past the total.
    finish: () => ({
      totalMs: Math.ceil((now() - startedAt) * 10) / 10,
      prepareMs: floor1(prepareMs),
      baseline: rounded(engines.baseline),
      candidate: rounded(engines.candidate),
    }),
  };
}
