import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Dockerode from "dockerode";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DockerRuntime } from "../../src/docker/docker-runtime.js";
import { EngineFailureError } from "../../src/vocabulary/engine-failure.js";
import { createRecordingLogger } from "../../src/logger.js";
import { ENGINE_SOURCE_DIR } from "../../harness/docker/build-test-engine-image.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { CONFLICTING_PATCH, SPEEDUP_PATCH, makeDockerRound } from "../../harness/docker/make-docker-round.js";
import { countConnections } from "../support/count-connections.js";
import { getFreePort } from "../support/get-free-port.js";

const context = dockerTestContext();

async function failureOf(promise: Promise<unknown>): Promise<EngineFailureError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof EngineFailureError)) throw new Error(`expected an EngineFailureError, got ${String(error)}`);
  return error;
}

describe.skipIf(!context)("DockerRuntime image preparation (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const runtimes: DockerRuntime[] = [];
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
  });

  function runtimeFor(options: Parameters<typeof makeDockerRound>[0]) {
    if (!docker) throw new Error("no docker");
    const { round, runId } = makeDockerRound(options);
    const logger = createRecordingLogger();
    const runtime = new DockerRuntime(docker, round, { logger, runId });
    runtimes.push(runtime);
    return { runtime, runId, round, logger };
  }

  it("applies the patch in an overlay on the baseline image, labels it, and removes it on dispose", async () => {
    if (!docker) return;
    const { runtime, runId, round } = runtimeFor({
      image,
      port: await getFreePort(),
      candidate: { command: ["cat", `${ENGINE_SOURCE_DIR}/profile.json`] },
    });
    const signal = new AbortController().signal;
    const baseline = await runtime.prepare("baseline", signal);
    const candidate = await runtime.prepare("candidate", signal);
    expect(baseline.imageId).toBe((await docker.getImage(image).inspect()).Id);
    expect(candidate.imageId).not.toBe(baseline.imageId);
    expect(candidate.patchHash).toBe(round.patch?.sha256);
    const built = await docker.getImage(candidate.imageId ?? "").inspect();
    expect(built.Config.Labels).toMatchObject({ "speedgate.run-id": runId, "speedgate.role": "candidate" });

    const engine = await runtime.start("candidate", signal);
    const exit = await engine.exited;
    expect(exit).toEqual({ exitCode: 0, signal: null, oomKilled: false });
    expect(engine.logTail()).toContain('    "itlMs": 4,');
    expect(engine.logTail()).not.toContain('    "itlMs": 48,');

    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
    await expect(docker.getImage(candidate.imageId ?? "").inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(docker.getImage(image).inspect()).resolves.toBeTruthy();
  });

  it("reports a patch that does not apply as a patch conflict with the rejected hunk", async () => {
    if (!docker) return;
    const { runtime, runId } = runtimeFor({ image, port: await getFreePort(), patch: CONFLICTING_PATCH });
    const { failure } = await failureOf(runtime.prepare("candidate", new AbortController().signal));
    expect(failure).toMatchObject({ engine: "candidate", stage: "patch", kind: "patch_conflict" });
    expect(failure.summary).toMatch(/patch -p1 failed .*does not apply/);
    expect(failure.logTail).toContain('-    "itlMs": 99,');
    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it("reports a failing postPatch step as a build error with the step's output", async () => {
    if (!docker) return;
    const { runtime, runId } = runtimeFor({
      image,
      port: await getFreePort(),
      patch: SPEEDUP_PATCH,
      candidate: { postPatch: [["sh", "-c", "echo compiling the kernel; echo 'error: nvcc not found' >&2; exit 1"]] },
    });
    const { failure } = await failureOf(runtime.prepare("candidate", new AbortController().signal));
    expect(failure).toMatchObject({ engine: "candidate", stage: "build", kind: "build_error" });
    expect(failure.summary).toMatch(/returned a non-zero code: 1/);
    expect(failure.logTail.join("\n")).toContain("error: nvcc not found");
    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it("runs the candidate's build without a network by default and with the engine's limits; build.network: host opts in", async () => {
    if (!docker) return;
    // The attack: a postPatch step (the patch's own code) reaching a service on the runner.
    const { port, connections, close } = await countConnections();
    try {
      // Unique per run: a cached step would not run again.
      const reach =
        `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('reached the runner'); process.exit(0); ` +
        `}).on('error', (error) => { console.log('no network: ' + error.code); process.exit(1); }); // ${randomUUID()}`;
      const client = new Dockerode();
      const requests: Array<Record<string, unknown>> = [];
      const build = client.buildImage.bind(client) as (file: unknown, options: Record<string, unknown>) => Promise<NodeJS.ReadableStream>;
      (client as unknown as { buildImage: typeof build }).buildImage = (file, options) => {
        requests.push(options);
        return build(file, options);
      };
      const at = async (network: "none" | "host" | null) => {
        const { round, runId } = makeDockerRound({
          image,
          port: await getFreePort(),
          candidate: { postPatch: [["node", "-e", reach]] },
          ...(network ? { build: { network } } : {}),
        });
        const runtime = new DockerRuntime(client, round, { logger: createRecordingLogger(), runId });
        runtimes.push(runtime);
        return runtime;
      };

      const closed = await at(null);
      const { failure } = await failureOf(closed.prepare("candidate", new AbortController().signal));
      expect(failure).toMatchObject({ engine: "candidate", stage: "build", kind: "build_error" });
      expect(failure.logTail.join("\n")).toMatch(/no network: E(CONNREFUSED|NETUNREACH)/);
      expect(connections()).toBe(0);
      const memory = Math.floor((((await docker.info()) as { MemTotal: number }).MemTotal * 90) / 100);
      expect(requests[0]).toMatchObject({
        networkmode: "none",
        memory,
        memswap: memory,
        shmsize: 64 * 1024 * 1024,
        ulimits: '[{"Name":"nofile","Soft":4096,"Hard":4096}]',
      });

      const open = await at("host");
      await open.prepare("candidate", new AbortController().signal);
      expect(connections()).toBe(1);
      expect(requests[1]).toMatchObject({ networkmode: "host" });
    } finally {
      await close();
    }
  });

  it("ends a hanging build at build.timeoutS", async () => {
    if (!docker) return;
    const { runtime } = runtimeFor({
      image,
      port: await getFreePort(),
      // Long enough for the COPY and patch steps, so the timeout lands in the hanging postPatch step.
      build: { timeoutS: 4 },
      candidate: { postPatch: [["sh", "-c", "echo waiting forever; sleep 600"]] },
    });
    const { failure } = await failureOf(runtime.prepare("candidate", new AbortController().signal));
    expect(failure).toMatchObject({ stage: "build", kind: "build_timeout" });
  });

  it("stops a build when the round is cancelled and removes the step images it made", async () => {
    if (!docker) return;
    const { round, runId } = makeDockerRound({
      image,
      port: await getFreePort(),
      patch: SPEEDUP_PATCH.replace('+    "itlMs": 4,', `+    "itlMs": 4.${Date.now()},`),
      candidate: { postPatch: [["sh", "-c", "echo compiling for a long time; sleep 600"]] },
    });
    const cancel = new AbortController();
    const recording = createRecordingLogger();
    const logger = {
      ...recording,
      debug: (message: string) => {
        recording.debug(message);
        if (message.endsWith("compiling for a long time")) cancel.abort(new Error("received SIGINT"));
      },
    };
    const runtime = new DockerRuntime(docker, round, { logger, runId });
    runtimes.push(runtime);
    await runtime.prepare("baseline", new AbortController().signal);
    const { failure } = await failureOf(runtime.prepare("candidate", cancel.signal));
    expect(failure).toMatchObject({ stage: "build", kind: "cancelled" });
    const made = recording.lines.flatMap((line) => /^candidate overlay: {2}---> ([0-9a-f]{12})$/.exec(line.message)?.slice(1) ?? []);
    const baseId = (await docker.getImage(image).inspect()).Id.slice(7, 19);
    const stepImages = made.filter((id) => id !== baseId);
    expect(stepImages.length).toBeGreaterThan(0);
    for (const id of stepImages) await expect(docker.getImage(id).inspect()).rejects.toMatchObject({ statusCode: 404 });
  });

  it("says clearly when a local image is missing and cannot be pulled", async () => {
    if (!docker) return;
    // A registry on a closed loopback port: the pull fails at once and nothing leaves the machine.
    const { runtime } = runtimeFor({ image: "127.0.0.1:9/speedgate-test-absent:never-built", port: await getFreePort() });
    const { failure } = await failureOf(runtime.prepare("baseline", new AbortController().signal));
    expect(failure).toMatchObject({ engine: "baseline", stage: "build", kind: "image_missing" });
    expect(failure.summary).toContain("127.0.0.1:9/speedgate-test-absent:never-built");
  });
});

describe.skipIf(!context)("DockerRuntime with baseline.build (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-baseline-build-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(
    "builds the baseline from a context folder with its args and " +
      ".dockerignore, overlays the patch on it, and keeps it after the round",
    async () => {
      if (!docker) return;
      await writeFile(join(dir, "Dockerfile"), "ARG BASE\nFROM ${BASE}\nCOPY . /opt/context/\n");
      await writeFile(join(dir, "note.txt"), "built from a context\n");
      await writeFile(join(dir, "ignored.bin"), "not sent to the daemon\n");
      await writeFile(join(dir, ".dockerignore"), "ignored.bin\n");
      const { round, runId } = makeDockerRound({
        image,
        port: await getFreePort(),
        baseline: { image: undefined, build: { context: dir, dockerfile: "Dockerfile", args: { BASE: image } } },
        candidate: { command: ["sh", "-c", `ls /opt/context; cat ${ENGINE_SOURCE_DIR}/profile.json`] },
      });
      const runtime = new DockerRuntime(docker, round, { logger: createRecordingLogger(), runId });
      const signal = new AbortController().signal;
      let baselineImage = "";
      try {
        baselineImage = (await runtime.prepare("baseline", signal)).imageId ?? "";
        const built = await docker.getImage(baselineImage).inspect();
        // Labels that stay the same from run to run, so the build and the overlays on it hit the cache.
        expect(built.Config.Labels?.["speedgate.run-id"]).toMatch(/^baseline-[0-9a-f]{16}$/);
        expect(built.Config.Labels?.["speedgate.role"]).toBe("baseline");
        await runtime.prepare("candidate", signal);
        const engine = await runtime.start("candidate", signal);
        expect(await engine.exited).toMatchObject({ exitCode: 0 });
        expect(engine.logTail()).toEqual(expect.arrayContaining(["Dockerfile", "note.txt", '    "itlMs": 4,']));
        expect(engine.logTail()).not.toContain("ignored.bin");
        await runtime.dispose();
        expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
        await expect(docker.getImage(baselineImage).inspect()).resolves.toBeTruthy();
      } finally {
        await runtime.dispose();
        if (baselineImage) await docker.getImage(baselineImage).remove({ force: true });
      }
    },
  );
});
