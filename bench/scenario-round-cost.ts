import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { type LoadedRound, loadRound } from "../src/config/load-round-config.js";
import { silentLogger } from "../src/logger.js";
import { runRound } from "../src/round/run-round.js";
import type { TimeSpent } from "../src/scorecard/scorecard-schema.js";
import type { SimProfileInput } from "../src/sim-engine/sim-profile.js";
import { SIM_RUNTIME_ROUND, SimRuntime } from "../harness/sim-engine/sim-runtime.js";
import { makePromptSet, writeSimRound } from "../harness/sim-engine/write-sim-round.js";

/*
 * Figure 16: what scenarios cost. A round of three scenarios (an open loop, one request at a time,
 * eight in flight) on the reference engine, whose every start takes a second (startupDelayMs, standing
 * in for loading weights: a real engine's minutes only make sharing matter more), against what its
 * parts cost apart: each scenario run as a round of its own (no scenarios), its warm-up and
 * benchmark summed, plus one set of engine starts and stops. One engine start serving every scenario
 * keeps the round within 1.2× of that; three rounds apart pay for three sets of starts.
 */

export interface ScenarioRoundCostFigure {
  scenarios: number;
  runs: number;
  /** The round with scenarios, from runRound's call to its card. */
  roundMs: number;
  /** Each scenario alone: its warm-up and benchmark on both engines, summed over the scenarios. */
  benchmarksMs: number;
  /** One set of engine starts and stops (both engines, every run), the mean of the rounds apart. */
  startsMs: number;
  /** roundMs / (benchmarksMs + startsMs). */
  ratio: number;
  /** The three scenarios as three rounds, one after another, for comparison. */
  apartMs: number;
  /** Engine starts in the round with scenarios, per engine. */
  startsPerEngine: number;
}

export const SCENARIO_RATIO_GOAL = 1.2;
const START_MS = 1000;
const RUNS = 2;

const CHAT = makePromptSet("chat", 16);
const DECODE = makePromptSet("decode", 8);
const BATCH = makePromptSet("batch", 16);

const PROFILE: SimProfileInput = {
  defaults: { ttftMs: 10, itlMs: 5, outputTokens: 20 },
  batchCost: 0.2,
  faults: { startupDelayMs: START_MS },
};

async function writeRound(dir: string): Promise<string> {
  return await writeSimRound(dir, {
    ...SIM_RUNTIME_ROUND,
    engine: "sim",
    prompts: { "chat.jsonl": CHAT, "decode.jsonl": DECODE, "batch.jsonl": BATCH },
    bench: { maxTokens: 32, requestIntervalMs: 20, runs: RUNS, warmupRequests: 2 },
    gate: { minRoundScore: 0.9, minPrompts: 1, maxRegression: 0.9 },
    scenarios: [
      { name: "chat-rate50", arrival: "poisson" },
      { name: "decode-c1", prompts: "decode.jsonl", concurrency: 1 },
      { name: "batch-c8", prompts: "batch.jsonl", concurrency: 8 },
    ],
  });
}

async function timeRound(round: LoadedRound): Promise<{ wallMs: number; spent: TimeSpent }> {
  const runtime = new SimRuntime({ baseline: PROFILE, candidate: PROFILE }, [...CHAT, ...DECODE, ...BATCH]);
  const started = performance.now();
  const card = await runRound({ round, logger: silentLogger, signal: new AbortController().signal, runtime });
  const wallMs = performance.now() - started;
  if (!card.timeSpent) throw new Error("the round's card says nothing of where its time went");
  return { wallMs, spent: card.timeSpent };
}

const engines = (spent: TimeSpent) => [spent.baseline, spent.candidate];

export async function measureScenarioRoundCost(): Promise<ScenarioRoundCostFigure> {
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-scenarios-"));
  try {
    const round = await loadRound(await writeRound(dir));
    const scenarios = round.scenarios ?? [];
    // Each scenario as a round of its own: its merged settings and prompts, no scenarios.
    let benchmarksMs = 0;
    let apartMs = 0;
    const starts: number[] = [];
    for (const scenario of scenarios) {
      const { scenarios: _all, ...config } = scenario.config;
      const alone = await timeRound({
        ...round,
        config,
        prompts: scenario.prompts,
        scenarios: undefined,
        fingerprint: scenario.fingerprint,
      });
      apartMs += alone.wallMs;
      benchmarksMs += engines(alone.spent).reduce((sum, engine) => sum + engine.warmupMs + engine.benchmarkMs, 0);
      starts.push(engines(alone.spent).reduce((sum, engine) => sum + engine.startMs + engine.stopMs, 0));
    }
    const startsMs = starts.reduce((sum, value) => sum + value, 0) / Math.max(1, starts.length);
    const together = await timeRound(round);
    return {
      scenarios: scenarios.length,
      runs: RUNS,
      roundMs: together.wallMs,
      benchmarksMs,
      startsMs,
      ratio: together.wallMs / (benchmarksMs + startsMs),
      apartMs,
      startsPerEngine: together.spent.baseline.starts,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function describeScenarioRoundCost(figure: ScenarioRoundCostFigure): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  return (
    `${figure.ratio.toFixed(3)}× (round ${s(figure.roundMs)}; the scenarios' benchmarks ${s(figure.benchmarksMs)} + one set of ` +
    `starts ${s(figure.startsMs)}; ` +
    `${figure.startsPerEngine} starts per engine; as ${figure.scenarios} rounds apart ${s(figure.apartMs)})`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figure = await measureScenarioRoundCost();
  console.log(`scenario round cost: ${describeScenarioRoundCost(figure)}; goal ≤ ${SCENARIO_RATIO_GOAL}×`);
}
