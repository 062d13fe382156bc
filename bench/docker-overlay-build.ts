import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import Dockerode from "dockerode";
import { DockerRuntime } from "../src/docker/docker-runtime.js";
import { sweepResources } from "../src/docker/sweep-resources.js";
import { silentLogger } from "../src/logger.js";
import { median } from "../src/scoring/median.js";
import { acquireTestEngineImage } from "../harness/docker/acquire-test-engine-image.js";
import { SPEEDUP_PATCH, makeDockerRound } from "../harness/docker/make-docker-round.js";

/*
 * The candidate overlay build for a small patch (one line of the reference engine's profile, in the
 * imported busybox+node test image): cold, with a patch the daemon has never seen, and warm, the
 * same patch again with the earlier image kept, so every step is a cache hit.
 */

export interface OverlayBuildFigure {
  coldMs: number;
  warmMs: number;
  runs: number;
  coldGoalMs: number;
  warmGoalMs: number;
}

async function timeCandidateBuild(
  docker: Dockerode,
  image: string,
  patch: string,
  keep: boolean,
): Promise<{ ms: number; runtime: DockerRuntime; runId: string }> {
  const { round, runId } = makeDockerRound({ image, port: 30000, patch, docker: { keepCandidateImage: keep } });
  const runtime = new DockerRuntime(docker, round, { logger: silentLogger, runId });
  const signal = new AbortController().signal;
  await runtime.prepare("baseline", signal);
  const started = performance.now();
  await runtime.prepare("candidate", signal);
  return { ms: performance.now() - started, runtime, runId };
}

export async function measureOverlayBuild(options: { runs?: number } = {}): Promise<OverlayBuildFigure> {
  const runs = options.runs ?? 5;
  const docker = new Dockerode();
  await docker.ping();
  // Held for the measurement and removed after it (unless a test run still holds it).
  const { image, release } = await acquireTestEngineImage(docker);
  const cold: number[] = [];
  const warm: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      // A value no earlier build used, so the COPY and RUN steps miss the cache.
      const unique = `2.${randomUUID().replace(/\D/g, "").slice(0, 8) || "1"}`;
      const patch = SPEEDUP_PATCH.replace('+    "itlMs": 2,', `+    "itlMs": ${unique},`);
      const first = await timeCandidateBuild(docker, image, patch, true);
      cold.push(first.ms);
      const second = await timeCandidateBuild(docker, image, patch, false);
      warm.push(second.ms);
      await second.runtime.dispose();
      await first.runtime.dispose();
      // The first build's image was kept for the warm build; remove it now that both are measured.
      await sweepResources(docker, { runId: first.runId }, silentLogger);
    }
  } finally {
    await release();
  }
  return { coldMs: median(cold) ?? Number.NaN, warmMs: median(warm) ?? Number.NaN, runs, coldGoalMs: 15_000, warmGoalMs: 2_000 };
}

export function formatOverlayBuild(figure: OverlayBuildFigure): string {
  const verdict = (ms: number, goal: number) => (ms < goal ? "meets" : "MISSES");
  return [
    `Docker overlay build of a one-line patch (median of ${figure.runs}, busybox+node test image on this daemon)`,
    `   cold (patch never built): ${figure.coldMs.toFixed(0)} ms (${verdict(figure.coldMs, figure.coldGoalMs)} the goal < ` +
      `${figure.coldGoalMs} ms)`,
    `   warm (every step cached): ${figure.warmMs.toFixed(0)} ms (${verdict(figure.warmMs, figure.warmGoalMs)} the goal < ` +
      `${figure.warmGoalMs} ms)`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(formatOverlayBuild(await measureOverlayBuild()));
}
