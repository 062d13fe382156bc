import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runBenchmark } from "../src/client/run-benchmark.js";
import { parseRoundConfig } from "../src/config/load-round-config.js";
import { findFreePort } from "../src/engine/find-free-port.js";
import { silentLogger } from "../src/logger.js";
import { runRound } from "../src/round/run-round.js";
import { median } from "../src/scoring/median.js";
import type { CompletedRequest } from "../src/scoring/request-record.js";
import { locateLlamaCpp } from "../harness/llama-cpp/locate-llama-cpp.js";
import { QWEN3_TOKENIZER, llamaCppPrompts, llamaServerCommand } from "../harness/llama-cpp/make-llama-cpp-round.js";
import { loadBenchTokenizer } from "./lib/load-bench-tokenizer.js";
import { percentileOfSorted } from "./lib/percentile.js";

/*
 * Figure 12: speedgate against a real engine, llama.cpp's server on this machine's CPU with the tiny
 * test model (../shared/engines/llama-cpp, or SPEEDGATE_LLAMA_CPP_DIR).
 *
 * - speedgate's own CPU per round: process.cpuUsage() around a whole `runRound` (both engines started,
 *   benchmarked and stopped, answers tokenized, the card built). The engines are child processes, so
 *   this is the harness alone: what it takes from the machine the engines are measured on.
 * - its timing error against the engine's own clock: one request at a time, so nothing queues, and for
 *   each answer the client's time per token (first streamed token to last, over the tokens between)
 *   against what llama-server logs for it ("eval time = … ms / N tokens (… ms per token"), matched in
 *   order; the `timings` object of the answer carries the same numbers and is checked against the log.
 */

export interface RealEngineFigure {
  /** user + system CPU of this process over one round, in ms. */
  cpuMsPerRound: number;
  roundWallMs: number;
  /** Requests and tokens that round measured (both engines). */
  requests: number;
  tokens: number;
  /** Signed error of the client's time per token against the engine's logged one, in % (median, p90 of the absolute). */
  timingErrorMedianPct: number;
  timingErrorP90AbsPct: number;
  /** The engine's logged time per token (median), and how many answers were compared. */
  engineMsPerToken: number;
  compared: number;
  /** Answers whose `timings` differed from the log line by more than 0.01 ms a token. */
  timingsMismatches: number;
}

const PROMPTS = 8;
const MAX_TOKENS = 64;

/** The round: A/A, the same server twice, as a calibration round would be; requests spaced so they rarely overlap. */
async function measureRoundCpu(
  server: string,
  model: string,
  dir: string,
): Promise<Pick<RealEngineFigure, "cpuMsPerRound" | "roundWallMs" | "requests" | "tokens">> {
  const config = parseRoundConfig({
    engine: "llama.cpp",
    runtime: "process",
    port: await findFreePort(),
    health: { path: "/health", timeoutS: 120, intervalMs: 50 },
    baseline: { command: llamaServerCommand(server, model), cwd: dir },
    bench: {
      prompts: "prompts.jsonl",
      model: "tiny",
      maxTokens: MAX_TOKENS,
      requestIntervalMs: 250,
      contextLimit: 2048,
      tolerance: 0.9,
      tokenizer: QWEN3_TOKENIZER,
    },
    gate: { minRoundScore: 1, minPrompts: 1 },
    docker: { stopTimeoutS: 2 },
  });
  const round = { config, configPath: join(dir, "round.yaml"), prompts: llamaCppPrompts(PROMPTS), patch: null };
  const started = performance.now();
  const before = process.cpuUsage();
  const card = await runRound({
    round,
    logger: silentLogger,
    signal: new AbortController().signal,
    runId: `bench-llama-${Date.now().toString(36)}`,
  });
  const used = process.cpuUsage(before);
  if (card.failure) throw new Error(`the round failed: ${card.failure.summary}`);
  const tokens = card.prompts.reduce(
    (total, prompt) => total + (prompt.baseline?.outputTokens ?? 0) + (prompt.candidate?.outputTokens ?? 0),
    0,
  );
  return {
    cpuMsPerRound: (used.user + used.system) / 1000,
    roundWallMs: performance.now() - started,
    requests: card.prompts.length * 2,
    tokens,
  };
}

/** llama-server's print_timing line for decoding: "… eval time = 111.38 ms / 40 tokens (2.78 ms per token, …". */
const EVAL_LINE = /\s eval time =\s+([\d.]+) ms \/\s+(\d+) tokens/;

async function measureTimingError(
  server: string,
  model: string,
): Promise<Omit<RealEngineFigure, "cpuMsPerRound" | "roundWallMs" | "requests" | "tokens">> {
  const port = await findFreePort();
  const argv = llamaServerCommand(server, model).map((arg) => (arg === "{port}" ? String(port) : arg));
  const child = spawn(argv[0] ?? server, argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  try {
    for (let attempt = 0; ; attempt++) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) break;
      if (attempt > 600 || child.exitCode !== null) throw new Error(`llama-server did not become healthy: ${log.slice(-500)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const config = parseRoundConfig({
      engine: "llama.cpp",
      runtime: "process",
      port,
      baseline: { command: ["true"] },
      // One at a time: an answer's time per token is then the engine's decoding and the wire, not a queue.
      bench: { prompts: "p.jsonl", model: "tiny", maxTokens: MAX_TOKENS, requestIntervalMs: 1_500, contextLimit: 2048, tolerance: 0.9 },
      gate: { minRoundScore: 1 },
    });
    const prompts = llamaCppPrompts(PROMPTS);
    const records = await runBenchmark({
      baseUrl: `http://127.0.0.1:${port}`,
      prompts,
      bench: config.bench,
      signal: new AbortController().signal,
      tokenCounter: loadBenchTokenizer(),
    });
    const logged = [...log.matchAll(new RegExp(EVAL_LINE, "g"))].map((match) => ({ ms: Number(match[1]), tokens: Number(match[2]) }));
    const answers = prompts.map((prompt) => records.get(prompt.id)).filter((record): record is CompletedRequest => record?.ok === true);
    if (logged.length !== answers.length) throw new Error(`${answers.length} answers but ${logged.length} eval lines in the log`);
    const errors: number[] = [];
    const engine: number[] = [];
    let timingsMismatches = 0;
    answers.forEach((answer, index) => {
      const line = logged[index];
      const chunks = answer.chunks;
      const first = chunks[0];
      const last = chunks[chunks.length - 1];
      if (!line || !first || !last || chunks.length < 3 || line.tokens < 2) return;
      const engineMsPerToken = line.ms / line.tokens;
      const times = answer.engineTimes;
      if (times && Math.abs(times.decodeMs / times.decodeTokens - engineMsPerToken) > 0.01) timingsMismatches++;
      const clientMsPerToken = (last.tMs - first.tMs) / (chunks.length - 1);
      engine.push(engineMsPerToken);
      errors.push(((clientMsPerToken - engineMsPerToken) / engineMsPerToken) * 100);
    });
    const absolute = errors.map(Math.abs).sort((a, b) => a - b);
    return {
      timingErrorMedianPct: median(errors) ?? Number.NaN,
      timingErrorP90AbsPct: percentileOfSorted(absolute, 90),
      engineMsPerToken: median(engine) ?? Number.NaN,
      compared: errors.length,
      timingsMismatches,
    };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
  }
}

export async function measureRealEngine(): Promise<RealEngineFigure> {
  const found = locateLlamaCpp();
  if ("missing" in found) throw new Error(`llama.cpp is not here (${found.missing})`);
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-llama-"));
  try {
    const round = await measureRoundCpu(found.server, found.model, dir);
    const timing = await measureTimingError(found.server, found.model);
    return { ...round, ...timing };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await measureRealEngine(), null, 2));
}
