import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Dockerode from "dockerode";
import { LABEL_RUN_ID } from "../src/docker/resource-labels.js";
import { silentLogger } from "../src/logger.js";
import { runRound } from "../src/round/run-round.js";
import { writeScorecard } from "../src/round/write-scorecard.js";
import { median } from "../src/scoring/median.js";
import { acquireTestEngineImage } from "../harness/docker/acquire-test-engine-image.js";
import { CUDA_OOM_LOG } from "../harness/docker/build-test-engine-image.js";
import { makeDockerRound, simEngineCommand } from "../harness/docker/make-docker-round.js";

/*
 * From a container's exit, as the daemon stamps it in its `die` event, to the card being written
 * (the round's containers are already removed by then). Measured for an engine that dies at
 * startup (CUDA OOM traceback, exit 1) and one that dies during the benchmark.
 */

export interface DockerExitToCardFigure {
  duringStartupMs: number;
  duringBenchmarkMs: number;
  runs: number;
  goalMs: number;
}

async function measureOnce(docker: Dockerode, image: string, dir: string, command: string[]): Promise<number> {
  const { round, runId } = makeDockerRound({
    image,
    port: 30000 + Math.floor(Math.random() * 20000),
    patch: null,
    prompts: 8,
    baseline: { command },
  });
  const events = await docker.getEvents({ filters: { type: ["container"], event: ["die"], label: [`${LABEL_RUN_ID}=${runId}`] } });
  const died = (async () => {
    for await (const chunk of events) return (JSON.parse(String(chunk)) as { timeNano: number }).timeNano / 1e6;
    throw new Error("the event stream ended before the container died");
  })();
  try {
    const card = await runRound({ round, logger: silentLogger, signal: new AbortController().signal, runId });
    await writeScorecard(join(dir, runId), card);
    const writtenAt = Date.now();
    if (!card.failure) throw new Error("expected the round to fail");
    return writtenAt - (await died);
  } finally {
    (events as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
}

export async function measureDockerExitToCard(options: { runs?: number } = {}): Promise<DockerExitToCardFigure> {
  const runs = options.runs ?? 5;
  const docker = new Dockerode();
  await docker.ping();
  // Held for the measurement and removed after it (unless a test run still holds it).
  const { image, release } = await acquireTestEngineImage(docker);
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-docker-exit-"));
  try {
    const startup: number[] = [];
    const benchmark: number[] = [];
    for (let run = 0; run < runs; run++) {
      startup.push(await measureOnce(docker, image, dir, simEngineCommand("--crash-log", CUDA_OOM_LOG)));
      benchmark.push(await measureOnce(docker, image, dir, simEngineCommand("--die-after-requests", "3")));
    }
    return { duringStartupMs: median(startup) ?? Number.NaN, duringBenchmarkMs: median(benchmark) ?? Number.NaN, runs, goalMs: 2_000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
    await release();
  }
}

export function formatDockerExitToCard(figure: DockerExitToCardFigure): string {
  const verdict = (ms: number) => (ms < figure.goalMs ? "meets" : "MISSES");
  return [
    `Docker failure detection (container die event -> card written, containers removed; median of ${figure.runs}; goal < ` +
      `${figure.goalMs} ms)`,
    `   died while starting:       ${figure.duringStartupMs.toFixed(0)} ms (${verdict(figure.duringStartupMs)} the goal)`,
    `   died during the benchmark: ${figure.duringBenchmarkMs.toFixed(0)} ms (${verdict(figure.duringBenchmarkMs)} the goal)`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(formatDockerExitToCard(await measureDockerExitToCard()));
}
