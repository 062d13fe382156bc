import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Dockerode from "dockerode";
import { resolveRoundCommits } from "../src/config/resolve-round-commits.js";
import { createTarArchive } from "../src/docker/create-tar-archive.js";
import { DockerRuntime } from "../src/docker/docker-runtime.js";
import { createOverlayContext } from "../src/docker/overlay-build-context.js";
import { runImageBuild } from "../src/docker/run-image-build.js";
import type { EngineRole } from "../src/vocabulary/engine-failure.js";
import { waitUntilHealthy } from "../src/engine/wait-until-healthy.js";
import { silentLogger } from "../src/logger.js";
import { median } from "../src/scoring/median.js";
import { acquireTestEngineImage } from "../harness/docker/acquire-test-engine-image.js";
import { BASELINE_PROFILE, ENGINE_SOURCE_DIR } from "../harness/docker/build-test-engine-image.js";
import { labelTestImage } from "../harness/docker/label-test-image.js";
import { makeDockerRound } from "../harness/docker/make-docker-round.js";
import { type GitRepository, createGitRepository } from "../harness/git/create-git-repository.js";

/*
 * Base/head mode on the reference image (busybox + node + the CLI, imported): the time from the start
 * of a round to both engines having answered their health check, for a Python-only pull request, when
 * the baseline for its base must be built (uncached) and when an earlier pull request on the same base
 * built it (cached). main moved on by 40 files since the image's commit; the pull request changes 2.
 * Also the measurement behind the overlay's design: the same 200-file change brought into an image as
 * a diff applied in a RUN step, and as the changed files COPYed in.
 */

export interface CommitsToReadyFigure {
  uncachedMs: number;
  cachedMs: number;
  /** Of which: preparing both engines (overlay builds, or the cache lookup). */
  uncachedPrepareMs: number;
  cachedPrepareMs: number;
  diffOverlayMs: number;
  copyOverlayMs: number;
  runs: number;
}

const SOURCE_FILES = 40;
const module = (index: number, version: number): string =>
  `# module ${index}\n${"def f():\n    return 1\n".repeat(40)}# version ${version}\n`;
const profile = (ttftMs: number): string =>
  `${JSON.stringify({ ...BASELINE_PROFILE, defaults: { ...BASELINE_PROFILE.defaults, ttftMs } }, null, 2)}\n`;

/** The engine's source files at one version, by path in the repository. */
const sourceFiles = (version: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: SOURCE_FILES }, (_, index) => [`python/module_${index}.py`, module(index, version)]));

async function makeHistory(repo: GitRepository): Promise<{ image: string; base: string; head: string }> {
  const files = sourceFiles;
  const image = await repo.commit("the image's commit", { ...files(1), "profile.json": profile(30) });
  const base = await repo.commit("main moves on", { ...files(2), "profile.json": profile(20) });
  await repo.git("checkout", "--quiet", "-b", "pr", base);
  const head = await repo.commit("a Python-only pull request", { "python/module_0.py": module(0, 3), "python/module_1.py": module(1, 3) });
  return { image, base, head };
}

/** From the round's start to the second engine healthy: prepare both, then start each in turn and wait for its health check. */
async function timeToReady(
  docker: Dockerode,
  image: string,
  repo: GitRepository,
  commits: { base: string; head: string },
  engine: string,
): Promise<{ totalMs: number; prepareMs: number }> {
  const { round, runId } = makeDockerRound({
    image,
    port: 30000 + Math.floor(Math.random() * 20000),
    patch: null,
    engine,
    candidate: { sourceDir: ENGINE_SOURCE_DIR },
    prompts: 2,
  });
  const signal = new AbortController().signal;
  const started = performance.now();
  const resolved = await resolveRoundCommits(round.config, { repoDir: repo.dir, base: commits.base, head: commits.head });
  const runtime = new DockerRuntime(docker, { ...round, commits: resolved }, { logger: silentLogger, runId });
  try {
    await runtime.prepare("baseline", signal);
    await runtime.prepare("candidate", signal);
    const prepareMs = performance.now() - started;
    for (const role of ["baseline", "candidate"] as EngineRole[]) {
      const engine = await runtime.start(role, signal);
      await waitUntilHealthy({ engine, path: "/health", timeoutS: 60, intervalMs: 20, signal });
      await engine.stop();
    }
    return { totalMs: performance.now() - started, prepareMs };
  } finally {
    await runtime.dispose();
  }
}

/** The same change as an overlay of each kind: a diff applied in a RUN step, or the changed files COPYed in. */
async function timeOverlayKinds(docker: Dockerode, image: string): Promise<{ diffMs: number; copyMs: number }> {
  const unique = randomUUID();
  const count = 200;
  const names = Array.from({ length: count }, (_, index) => `python/generated_${index}.py`);
  const content = (index: number): string => `# ${unique} ${index}\n${"x = 1\n".repeat(600)}`;
  const diff = names
    .map(
      (name, index) =>
        `--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${601} @@\n${content(index)
          .split("\n")
          .slice(0, -1)
          .map((line) => `+${line}`)
          .join("\n")}\n`,
    )
    .join("");
  const build = async (archive: Buffer, tag: string): Promise<number> => {
    const started = performance.now();
    const outcome = await runImageBuild(docker, {
      context: { archive },
      dockerfile: "Dockerfile",
      buildArgs: {},
      labels: {},
      tag,
      networkMode: "none",
      limits: {},
      timeoutS: 600,
      signal: new AbortController().signal,
      logger: silentLogger,
      label: "bench overlay",
    });
    if (outcome.status !== "built") throw new Error(`the ${tag} overlay did not build`);
    const ms = performance.now() - started;
    await docker.getImage(tag).remove({ force: true });
    return ms;
  };
  const diffOverlay = createOverlayContext({
    baseImageId: image,
    patch: Buffer.from(diff),
    patchName: "base.patch",
    sourceDir: ENGINE_SOURCE_DIR,
    postPatch: [],
    labels: {},
  });
  const diffMs = await build(diffOverlay.archive, `speedgate-bench-overlay:diff-${unique.slice(0, 8)}`);
  const copyArchive = createTarArchive([
    { name: "Dockerfile", content: Buffer.from(`FROM ${image}\nCOPY files/ ${ENGINE_SOURCE_DIR}/\n`) },
    ...names.map((name, index) => ({ name: `files/${name}`, content: Buffer.from(content(index)) })),
  ]);
  const copyMs = await build(copyArchive, `speedgate-bench-overlay:copy-${unique.slice(0, 8)}`);
  return { diffMs, copyMs };
}

export async function measureCommitsToReady(options: { runs?: number } = {}): Promise<CommitsToReadyFigure> {
  const runs = options.runs ?? 3;
  const docker = new Dockerode();
  await docker.ping();
  const { image: testImage, release } = await acquireTestEngineImage(docker);
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-commits-"));
  const engines: string[] = [];
  let labelled: { image: string; remove: () => Promise<void> } | null = null;
  try {
    const repo = await createGitRepository(dir);
    const commits = await makeHistory(repo);
    // The image holds its commit's checkout: the profile and every source file at version 1.
    const checkout = Object.fromEntries(
      Object.entries({ ...sourceFiles(1), "profile.json": profile(30) }).map(([path, content]) => [
        `${ENGINE_SOURCE_DIR}/${path}`,
        content,
      ]),
    );
    labelled = await labelTestImage(docker, testImage, { "org.opencontainers.image.revision": commits.image }, checkout);
    const uncached: Array<{ totalMs: number; prepareMs: number }> = [];
    const cached: Array<{ totalMs: number; prepareMs: number }> = [];
    const diffs: number[] = [];
    const copies: number[] = [];
    for (let run = 0; run < runs; run++) {
      // A new engine name per run: its cached baselines are its own, so the first round always builds one.
      const engine = `bench-${randomUUID().slice(0, 8)}`;
      engines.push(engine);
      uncached.push(await timeToReady(docker, labelled.image, repo, commits, engine));
      cached.push(await timeToReady(docker, labelled.image, repo, commits, engine));
      const kinds = await timeOverlayKinds(docker, labelled.image);
      diffs.push(kinds.diffMs);
      copies.push(kinds.copyMs);
    }
    const pick = (values: number[]): number => median(values) ?? Number.NaN;
    return {
      uncachedMs: pick(uncached.map((value) => value.totalMs)),
      cachedMs: pick(cached.map((value) => value.totalMs)),
      uncachedPrepareMs: pick(uncached.map((value) => value.prepareMs)),
      cachedPrepareMs: pick(cached.map((value) => value.prepareMs)),
      diffOverlayMs: pick(diffs),
      copyOverlayMs: pick(copies),
      runs,
    };
  } finally {
    for (const engine of engines) {
      const images = await docker.listImages({ filters: { reference: [`speedgate-baseline:${engine}-*`] } });
      for (const info of images)
        await docker
          .getImage(info.Id)
          .remove({ force: true })
          .catch(() => undefined);
    }
    await labelled?.remove();
    await rm(dir, { recursive: true, force: true });
    await release();
  }
}

export function formatCommitsToReady(figure: CommitsToReadyFigure): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  return [
    `Base/head mode, Python-only pull request, reference image (median of ${figure.runs}): start -> both engines healthy`,
    `   baseline not cached: ${s(figure.uncachedMs)} (preparing both engines ${s(figure.uncachedPrepareMs)})`,
    `   baseline cached:     ${s(figure.cachedMs)} (preparing both engines ${s(figure.cachedPrepareMs)})`,
    `   a 200-file change as an overlay: diff applied ${s(figure.diffOverlayMs)}, files copied ${s(figure.copyOverlayMs)}`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(formatCommitsToReady(await measureCommitsToReady()));
}
