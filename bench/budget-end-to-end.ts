import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "yaml";
import { findFreePort } from "../src/engine/find-free-port.js";
import { readScorecard } from "../src/scorecard/read-scorecard.js";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import { fasterProfile } from "../src/sim-engine/simulate-round.js";
import type { SimProfileInput } from "../src/sim-engine/sim-profile.js";
import { locateLlamaCpp } from "../harness/llama-cpp/locate-llama-cpp.js";
import { QWEN3_TOKENIZER, llamaCppPrompts } from "../harness/llama-cpp/make-llama-cpp-round.js";
import buildCliBundle from "../harness/cli-bundle/cli-bundle-setup.js";

/*
 * The default run budget end to end: `speedgate run` in a fresh process per round, as a CI job runs
 * it, with the config's defaults (bench.runs { min: 2, max: 24 }, the sequential rule, counterbalanced).
 *   - the reference engine (`speedgate sim-engine`) started afresh for every run of each engine with
 *     --run-variance 0.0566, so two engine starts differ by 8% in speed (an H200 with llama.cpp's CUDA
 *     server at saturation), 20 rounds each of an unchanged engine, one 10% faster and one 1.5× faster;
 *   - llama.cpp's real CPU server (llama-server-step-delay, 4 slots, the requests in flight together),
 *     10 rounds with the baseline slowed by PLANT_US=2500 (about 25%) and 10 with the same server in
 *     both seats.
 * Rounds are interleaved, so a change in the machine's load falls on every kind alike. ROUNDS and
 * LLAMA_ROUNDS set the counts when it runs on its own (`npx tsx bench/budget-end-to-end.ts`); PART=sim
 * or PART=llama runs one half; PLANT sets the baseline's planted delay in µs (the slowdown it makes depends on
 * how fast the machine runs an engine step: 2500 made ~25% under heavy load, ~50% on a quiet machine).
 */

export interface BudgetRate {
  setup: string;
  passed: number;
  /** Rounds that gave a verdict; `failed` more broke for reasons of the machine. */
  rounds: number;
  failed: number;
  /** Rounds that stopped after at most 3 runs of each engine. */
  withinThree: number;
  /** Runs of each engine, per round. */
  runs: number[];
  /** Why each round stopped (the card's sequential.stop). */
  stops: Record<string, number>;
  /** Wall time of the rounds, in seconds (median and total). */
  medianS: number;
  totalS: number;
}

const SIM_PROMPTS = 30;

function simProfile(faster: number): SimProfileInput {
  const ids = Array.from({ length: SIM_PROMPTS }, (_, index) => `q${String(index + 1).padStart(2, "0")}`);
  const base: SimProfileInput = {
    defaults: { ttftMs: 30, itlMs: 6, outputTokens: 64 },
    prompts: Object.fromEntries(ids.map((id, index) => [id, { outputTokens: 32 + ((index * 37) % 96) }])),
  };
  return faster === 1 ? base : fasterProfile(base, faster);
}

function runCli(bundle: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [bundle, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (part: Buffer) => (stderr = (stderr + part.toString("utf8")).slice(-4000)));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

interface Played {
  card: Scorecard;
  seconds: number;
}

function rateOf(setup: string, played: readonly Played[]): BudgetRate {
  const measured = played.filter((round) => round.card.failure === null);
  const stops: Record<string, number> = {};
  for (const round of measured) {
    const stop = round.card.sequential?.stop ?? "fixed runs";
    stops[stop] = (stops[stop] ?? 0) + 1;
  }
  const seconds = played.map((round) => round.seconds).sort((a, b) => a - b);
  return {
    setup,
    passed: measured.filter((round) => round.card.gate.passed).length,
    rounds: measured.length,
    failed: played.length - measured.length,
    withinThree: measured.filter((round) => round.card.runs.completed <= 3).length,
    runs: measured.map((round) => round.card.runs.completed),
    stops,
    medianS: seconds[Math.floor(seconds.length / 2)] ?? 0,
    totalS: seconds.reduce((sum, value) => sum + value, 0),
  };
}

/** Plays rounds of one config file, written afresh before each with a port free at that moment. */
function roundPlayer(
  bundle: string,
  dir: string,
  log: (line: string) => void,
): (label: string, config: (port: number) => Record<string, unknown>) => Promise<Played> {
  let count = 0;
  return async (label, config) => {
    const path = join(dir, `round-${++count}.json`);
    await writeFile(path, JSON.stringify(config(await findFreePort()), null, 2));
    const out = join(dir, `out-${count}`);
    const started = performance.now();
    const result = await runCli(bundle, ["run", "--config", path, "--out", out]);
    const seconds = (performance.now() - started) / 1000;
    if (result.code !== 0 && result.code !== 1) throw new Error(`speedgate run exited ${String(result.code)}: ${result.stderr}`);
    const card = await readScorecard(join(out, "scorecard.json"));
    if (card.failure) log(`${label}: ${card.failure.engine} failed at ${card.failure.stage}: ${card.failure.label}`);
    log(
      `${label}: ${card.roundScore?.toFixed(4) ?? "-"} runs ${card.runs.scores.map((score) => score?.toFixed(3)).join(" ")} ` +
        `${card.sequential?.stop ?? ""} ${card.gate.passed ? "PASS" : "fail"} ${seconds.toFixed(1)} s`,
    );
    if (!card.gate.passed) log(`  ${card.gate.reasons.join("; ")}`);
    await rm(out, { recursive: true, force: true });
    return { card, seconds };
  };
}

export async function measureBudgetOnReferenceEngine(
  options: { rounds?: number; log?: (line: string) => void } = {},
): Promise<BudgetRate[]> {
  const rounds = options.rounds ?? 20;
  const log = options.log ?? (() => undefined);
  const teardown = await buildCliBundle();
  const bundle = process.env.SPEEDGATE_DEV_CLI_BUNDLE as string;
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-budget-sim-"));
  try {
    const ids = Array.from({ length: SIM_PROMPTS }, (_, index) => `q${String(index + 1).padStart(2, "0")}`);
    const prompts = ids.map((id) => JSON.stringify({ id, messages: [{ role: "user", content: `Question ${id}.` }] }));
    await writeFile(join(dir, "prompts.jsonl"), `${prompts.join("\n")}\n`);
    // SPEEDUPS=1.1 plays only the 10% faster engine's rounds (a kind that missed, run again on its own).
    const speedups = process.env.SPEEDUPS?.split(",").map(Number) ?? [1, 1.1, 1.5];
    // The baseline is the unchanged engine's profile in every round, played or not.
    for (const speedup of new Set([1, ...speedups])) {
      await writeFile(join(dir, `engine-${speedup.toString()}.json`), JSON.stringify(simProfile(speedup)));
    }
    const engine = (speedup: number): string[] => [
      "{node}",
      "{speedgate}",
      "sim-engine",
      "--port",
      "{port}",
      "--profile",
      join(dir, `engine-${speedup.toString()}.json`),
      "--prompts",
      join(dir, "prompts.jsonl"),
      "--jitter",
      "0.03",
      "--run-variance",
      "0.0566",
    ];
    const config = (speedup: number) => (port: number) => ({
      engine: "sim-engine",
      runtime: "process",
      port,
      health: { path: "/health", timeoutS: 60, intervalMs: 25 },
      baseline: { command: engine(1) },
      candidate: { command: engine(speedup) },
      bench: { prompts: join(dir, "prompts.jsonl"), maxTokens: 256, requestIntervalMs: 10, contextLimit: 4096, tolerance: 0.9 },
      gate: { minRoundScore: 1 },
    });
    const play = roundPlayer(bundle, dir, log);
    const played: Played[][] = speedups.map(() => []);
    for (let index = 0; index < rounds; index++) {
      for (const [at, speedup] of speedups.entries()) {
        played[at]?.push(await play(`${speedup.toString()}× ${(index + 1).toString()}`, config(speedup)));
      }
    }
    return speedups.map((speedup, at) => rateOf(speedup === 1 ? "unchanged engine" : `${speedup.toString()}× faster`, played[at] ?? []));
  } finally {
    await rm(dir, { recursive: true, force: true });
    await teardown();
  }
}

export async function measureBudgetOnLlamaCpp(
  options: { rounds?: number; plantUs?: number; log?: (line: string) => void } = {},
): Promise<BudgetRate[] | null> {
  const located = locateLlamaCpp();
  if ("missing" in located) return null;
  const server = join(located.dir, "llama-server-step-delay");
  const rounds = options.rounds ?? 10;
  const plant = String(options.plantUs ?? 2500);
  const log = options.log ?? (() => undefined);
  const teardown = await buildCliBundle();
  const bundle = process.env.SPEEDGATE_DEV_CLI_BUNDLE as string;
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-budget-llama-"));
  try {
    const prompts = llamaCppPrompts(16).map((prompt) => JSON.stringify(prompt));
    await writeFile(join(dir, "prompts.jsonl"), `${prompts.join("\n")}\n`);
    const command = [server, "-m", located.model, "--alias", "tiny", "--host", "127.0.0.1", "--port", "{port}", "-c", "4096"];
    const config = (slowed: boolean) => (port: number) => ({
      engine: "llama.cpp",
      runtime: "process",
      port,
      health: { path: "/health", timeoutS: 120, intervalMs: 50 },
      // Four slots, so the requests in flight share the engine's batches, as on a GPU; one thread, the fastest here under load.
      baseline: { command: [...command, "-np", "4", "-t", "1", "--no-webui"], env: { PLANT_US: slowed ? plant : "0" } },
      candidate: { env: { PLANT_US: "0" } },
      bench: {
        prompts: join(dir, "prompts.jsonl"),
        model: "tiny",
        maxTokens: 32,
        concurrency: 4,
        contextLimit: 4096,
        tolerance: 0.9,
        requestTimeoutS: 120,
        tokenizer: QWEN3_TOKENIZER,
      },
      gate: { minRoundScore: 1 },
    });
    const play = roundPlayer(bundle, dir, log);
    const slowedRounds: Played[] = [];
    const sameRounds: Played[] = [];
    for (let index = 0; index < rounds; index++) {
      slowedRounds.push(await play(`baseline slowed ${(index + 1).toString()}`, config(true)));
      sameRounds.push(await play(`same server ${(index + 1).toString()}`, config(false)));
    }
    return [rateOf(`baseline slowed by PLANT_US=${plant}`, slowedRounds), rateOf("the same server in both seats", sameRounds)];
  } finally {
    await rm(dir, { recursive: true, force: true });
    await teardown();
  }
}

export interface DemoRoundTime {
  setup: string;
  /** Wall time of each round, in seconds, and the runs each took. */
  seconds: number[];
  runs: number[];
  passed: number;
}

/**
 * The demo's round (examples/demo: the reference engine, faster.patch 1.4× faster and cutting two answers) through
 * `speedgate run`, with the default budget against `bench.runs: 4` (the default before budgets) and the demo's own
 * `runs: 1`, interleaved: a clear effect stops a budget at its first look, so it should take no longer than four runs.
 */
export async function measureDemoRoundTime(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<DemoRoundTime[]> {
  const rounds = options.rounds ?? 3;
  const log = options.log ?? (() => undefined);
  const teardown = await buildCliBundle();
  const bundle = process.env.SPEEDGATE_DEV_CLI_BUNDLE as string;
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-budget-demo-"));
  try {
    await cp(fileURLToPath(new URL("../examples/demo", import.meta.url)), dir, { recursive: true });
    const demo = parse(await readFile(join(dir, "round.yml"), "utf8")) as { bench: Record<string, unknown> } & Record<string, unknown>;
    const setups: Array<[string, Record<string, unknown>]> = [
      ["the default budget (2 to 24 runs)", { runs: undefined }],
      ["bench.runs: 4 (the default before)", { runs: 4 }],
      ["bench.runs: 1 (the demo's own)", { runs: 1 }],
    ];
    const times: DemoRoundTime[] = setups.map(([setup]) => ({ setup, seconds: [], runs: [], passed: 0 }));
    for (let index = 0; index < rounds; index++) {
      for (const [at, [setup, bench]] of setups.entries()) {
        const path = join(dir, `round-${at.toString()}.json`);
        await writeFile(path, JSON.stringify({ ...demo, port: await findFreePort(), bench: { ...demo.bench, ...bench } }));
        const out = join(dir, `out-${at.toString()}`);
        const started = performance.now();
        const result = await runCli(bundle, ["run", "--config", path, "--out", out]);
        const seconds = (performance.now() - started) / 1000;
        if (result.code !== 0 && result.code !== 1) throw new Error(`speedgate run exited ${String(result.code)}: ${result.stderr}`);
        const card = await readScorecard(join(out, "scorecard.json"));
        const entry = times[at] as DemoRoundTime;
        entry.seconds.push(seconds);
        entry.runs.push(card.runs.completed);
        if (card.gate.passed) entry.passed++;
        log(
          `demo, ${setup}: ${seconds.toFixed(1)} s, ${card.runs.completed.toString()} runs, ` +
            `${card.sequential?.stop ?? ""} ${card.gate.passed ? "PASS" : "fail"}`,
        );
        await rm(out, { recursive: true, force: true });
      }
    }
    return times;
  } finally {
    await rm(dir, { recursive: true, force: true });
    await teardown();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const log = (line: string): void => console.error(line);
  const part = process.env.PART ?? "both";
  const started = Date.now();
  if (part === "demo") console.log(JSON.stringify(await measureDemoRoundTime({ rounds: Number(process.env.ROUNDS ?? 3), log })));
  if (part === "sim" || part === "both")
    console.log(JSON.stringify(await measureBudgetOnReferenceEngine({ rounds: Number(process.env.ROUNDS ?? 20), log })));
  if (part === "llama" || part === "both") {
    const plantUs = Number(process.env.PLANT ?? 2500);
    console.log(JSON.stringify(await measureBudgetOnLlamaCpp({ rounds: Number(process.env.LLAMA_ROUNDS ?? 10), plantUs, log })));
  }
  console.error(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
