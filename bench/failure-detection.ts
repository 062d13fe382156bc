import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseRoundConfig } from "../src/config/load-round-config.js";
import { findFreePort } from "../src/engine/find-free-port.js";
import { silentLogger } from "../src/logger.js";
import { runRound } from "../src/round/run-round.js";
import { writeScorecard } from "../src/round/write-scorecard.js";
import { median } from "../src/scoring/median.js";

/*
 * Figure 3: from the engine process's exit to the card being written. The engine stamps the moment
 * it exits (performance.timeOrigin + now() is the same clock in every process on the machine) in its
 * last log line; the card carries that line in its failure's log tail.
 */

const ENGINE = `
import { createServer } from "node:http";
import { writeSync } from "node:fs";
const [port, mode] = process.argv.slice(2);
const exitNow = () => {
  writeSync(1, "RuntimeError: exiting at " + (performance.timeOrigin + performance.now()) + "\\n");
  process.exit(1);
};
if (mode === "startup") setTimeout(exitNow, 100);
else {
  let dying = false;
  createServer((request, response) => {
    if (request.url === "/health") return response.end("ok");
    response.writeHead(200, { "content-type": "text/event-stream" });
    const timer = setInterval(() => response.write(": working\\n\\n"), 20);
    response.on("close", () => clearInterval(timer));
    if (!dying) { dying = true; setTimeout(exitNow, 100); }
  }).listen(Number(port), "127.0.0.1");
}
`;

export interface FailureDetectionFigure {
  /** Median milliseconds from exit to card written, engine dying during the benchmark. */
  duringBenchmarkMs: number;
  /** The same for an engine dying before it is healthy. */
  duringStartupMs: number;
  runs: number;
  goalMs: number;
}

async function measureOnce(dir: string, script: string, mode: "benchmark" | "startup"): Promise<number> {
  await writeFile(join(dir, "prompts.jsonl"), '{"id":"a","prompt":"x"}\n{"id":"b","prompt":"y"}\n');
  const config = parseRoundConfig({
    engine: "bench",
    runtime: "process",
    port: await findFreePort(),
    health: { timeoutS: 30, intervalMs: 10 },
    baseline: { command: ["{node}", script, "{port}", mode] },
    bench: { prompts: join(dir, "prompts.jsonl"), maxTokens: 16, requestIntervalMs: 0, contextLimit: 1024, tolerance: 0.9 },
    gate: { minRoundScore: 1 },
    docker: { stopTimeoutS: 2 },
  });
  const card = await runRound({
    round: {
      config,
      configPath: join(dir, "round.yml"),
      prompts: [
        { id: "a", prompt: "x" },
        { id: "b", prompt: "y" },
      ],
      patch: null,
    },
    logger: silentLogger,
    signal: new AbortController().signal,
  });
  await writeScorecard(join(dir, "out"), card);
  const writtenAt = performance.timeOrigin + performance.now();
  const stamp = card.failure?.logTail.map((line) => /exiting at ([\d.]+)/.exec(line)?.[1]).find((value) => value !== undefined);
  if (!stamp) throw new Error(`expected the engine's exit stamp in the card's log tail, got failure ${JSON.stringify(card.failure)}`);
  return writtenAt - Number(stamp);
}

export async function measureFailureDetection(options: { runs?: number } = {}): Promise<FailureDetectionFigure> {
  const runs = options.runs ?? 7;
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-failure-"));
  try {
    const script = join(dir, "dying-engine.mjs");
    await writeFile(script, ENGINE);
    const benchmark: number[] = [];
    const startup: number[] = [];
    for (let run = 0; run < runs; run++) {
      benchmark.push(await measureOnce(dir, script, "benchmark"));
      startup.push(await measureOnce(dir, script, "startup"));
    }
    return { duringBenchmarkMs: median(benchmark) ?? Number.NaN, duringStartupMs: median(startup) ?? Number.NaN, runs, goalMs: 1_000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function formatFailureDetection(figure: FailureDetectionFigure): string {
  const verdict = (ms: number) => (ms < figure.goalMs ? "meets" : "MISSES");
  return [
    `3. Failure detection (engine exit -> card written, median of ${figure.runs}; goal < ${figure.goalMs} ms)`,
    `   died during the benchmark: ${figure.duringBenchmarkMs.toFixed(0)} ms (${verdict(figure.duringBenchmarkMs)} the goal)`,
    `   died while starting:       ${figure.duringStartupMs.toFixed(0)} ms (${verdict(figure.duringStartupMs)} the goal)`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(formatFailureDetection(await measureFailureDetection()));
}
