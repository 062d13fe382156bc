import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Dockerode from "dockerode";
import { type LoadedRound, loadRound } from "../src/config/load-round-config.js";
import { silentLogger } from "../src/logger.js";
import type { RoundProgressEvent } from "../src/round/round-progress.js";
import { runRound } from "../src/round/run-round.js";
import { writeScorecard } from "../src/round/write-scorecard.js";
import { median } from "../src/scoring/median.js";
import { buildTestEngineImage } from "../harness/docker/build-test-engine-image.js";
import { CONFLICTING_PATCH, makeDockerRound } from "../harness/docker/make-docker-round.js";
import { simEngineCommand, writeSimRound } from "../harness/sim-engine/write-sim-round.js";

/*
 * From the start of a round to its patch_conflict card on disk. The candidate is prepared (its
 * patch applied, its image built) before any engine starts, so a patch that does not apply costs
 * no baseline startup and benchmark: on a GPU runner that is minutes of model loading and CUDA graph
 * capture saved. Measured for the process runtime (a copy of the source, `git apply`) and the
 * Docker runtime (the overlay build on the baseline image); engine starts are counted, and must be 0.
 */

export interface PatchConflictFigure {
  processMs: number;
  dockerMs: number | null;
  /** Engines started across every measured round. */
  enginesStarted: number;
  runs: number;
}

async function timeRound(round: LoadedRound, out: string, runId: string): Promise<{ ms: number; started: number }> {
  let started = 0;
  const begin = performance.now();
  const card = await runRound({
    round,
    logger: silentLogger,
    signal: new AbortController().signal,
    runId,
    onProgress: (event: RoundProgressEvent) => {
      if (event.type === "starting") started++;
    },
  });
  await writeScorecard(join(out, runId), card);
  const ms = performance.now() - begin;
  if (card.failure?.kind !== "patch_conflict") throw new Error(`expected a patch_conflict card, got ${card.failure?.kind ?? "no failure"}`);
  return { ms, started };
}

/** A process round on the reference engine whose patch cannot apply to its source. */
async function writeProcessRound(dir: string): Promise<string> {
  await mkdir(join(dir, "engine"), { recursive: true });
  await writeFile(
    join(dir, "engine", "profile.json"),
    `${JSON.stringify({ defaults: { ttftMs: 30, itlMs: 6, outputTokens: 12, reasoningTokens: 0 } }, null, 2)}\n`,
  );
  await writeFile(join(dir, "conflict.patch"), CONFLICTING_PATCH);
  return await writeSimRound(dir, {
    engine: "sim",
    // No engine starts: the round ends at the patch.
    port: 30000,
    prompts: { "prompts.jsonl": Array.from({ length: 10 }, (_, index) => ({ id: `p${index}`, prompt: `count to ${index}` })) },
    baseline: { command: simEngineCommand("--profile", "profile.json"), cwd: "engine" },
    candidate: { sourceDir: "engine", patch: "conflict.patch" },
    bench: { maxTokens: 64, runs: 4 },
    fileName: "round.yaml",
  });
}

async function dockerAnswers(docker: Dockerode): Promise<boolean> {
  try {
    await docker.ping();
    return true;
  } catch {
    return false;
  }
}

export async function measurePatchConflictToCard(options: { runs?: number } = {}): Promise<PatchConflictFigure> {
  const runs = options.runs ?? 5;
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-patch-conflict-"));
  try {
    const round = await loadRound(await writeProcessRound(dir));
    const processMs: number[] = [];
    let enginesStarted = 0;
    for (let run = 0; run < runs; run++) {
      const { ms, started } = await timeRound(round, dir, `bench-conflict-process-${run}`);
      processMs.push(ms);
      enginesStarted += started;
    }
    let dockerMs: number | null = null;
    const docker = new Dockerode();
    if (await dockerAnswers(docker)) {
      const image = await buildTestEngineImage(docker);
      const times: number[] = [];
      for (let run = 0; run < runs; run++) {
        const { round: dockerRound, runId } = makeDockerRound({ image, port: 30000, patch: CONFLICTING_PATCH });
        const { ms, started } = await timeRound(dockerRound, dir, runId);
        times.push(ms);
        enginesStarted += started;
      }
      dockerMs = median(times);
    }
    return { processMs: median(processMs) ?? Number.NaN, dockerMs, enginesStarted, runs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figure = await measurePatchConflictToCard();
  console.log(
    `start → patch_conflict card (median of ${figure.runs}): process ${figure.processMs.toFixed(0)} ms, docker ` +
      `${figure.dockerMs === null ? "not measured (no daemon)" : `${figure.dockerMs.toFixed(0)} ms`}; engines started: ` +
      `${figure.enginesStarted}`,
  );
}
