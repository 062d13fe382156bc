import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { createContainerSpec } from "../../src/docker/create-container-spec.js";
import { resolveResourceLimits } from "../../src/docker/resolve-resource-limits.js";
import { DockerRuntime } from "../../src/docker/docker-runtime.js";
import { waitUntilHealthy } from "../../src/engine/wait-until-healthy.js";
import type { RunningEngine } from "../../src/engine/engine-runtime.js";
import { createRecordingLogger } from "../../src/logger.js";
import { BASELINE_PROFILE, testPrompt } from "../../harness/docker/build-test-engine-image.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { makeDockerRound } from "../../harness/docker/make-docker-round.js";
import { getFreePort } from "../support/get-free-port.js";

function dockerSettings(docker: Record<string, unknown>) {
  return parseRoundConfig({
    engine: "vllm",
    runtime: "docker",
    port: 8000,
    baseline: { image: "vllm/vllm-openai:v0.11.0" },
    bench: { prompts: "/p.jsonl", maxTokens: 8, requestIntervalMs: 0, contextLimit: 64, tolerance: 0.9 },
    gate: { minRoundScore: 1 },
    docker,
  }).docker;
}

describe("the container spec of an engine", () => {
  const plan = {
    name: "speedgate-r1-baseline",
    imageId: "sha256:abc",
    command: ["vllm", "serve", "/models/m"],
    env: {},
    labels: {},
    networkMode: "host",
  };

  const planFor = (docker: ReturnType<typeof dockerSettings>) => ({
    ...plan,
    docker,
    limits: resolveResourceLimits(docker, 64 * 1024 ** 3),
  });

  it("mounts docker.mounts read-only unless a mount opts into writes, as bind mounts that refuse a missing source", () => {
    const spec = createContainerSpec(
      planFor(
        dockerSettings({ mounts: ["/srv/models/m:/models/m", { source: "/srv/hf", target: "/root/.cache/huggingface", readOnly: false }] }),
      ),
    );
    expect(spec.HostConfig?.Mounts).toEqual([
      { Type: "bind", Source: "/srv/models/m", Target: "/models/m", ReadOnly: true },
      { Type: "bind", Source: "/srv/hf", Target: "/root/.cache/huggingface", ReadOnly: false },
    ]);
    expect(spec.HostConfig).not.toHaveProperty("Binds");
  });

  it("sets the working folder and the entrypoint only when the config asks, and a private IPC namespace unless it asks for host", () => {
    const plain = createContainerSpec(planFor(dockerSettings({})));
    expect(plain).not.toHaveProperty("WorkingDir");
    expect(plain).not.toHaveProperty("Entrypoint");
    expect(plain.HostConfig?.IpcMode).toBe("private");
    expect(plain.HostConfig).not.toHaveProperty("Mounts");
    const configured = createContainerSpec({ ...planFor(dockerSettings({ ipc: "host", entrypoint: [] })), workingDir: "/vllm-workspace" });
    expect(configured).toMatchObject({ WorkingDir: "/vllm-workspace", Entrypoint: [], Cmd: ["vllm", "serve", "/models/m"] });
    expect(configured.HostConfig?.IpcMode).toBe("host");
  });
});

const context = dockerTestContext();

describe.skipIf(!context)("engine containers with mounts, a working folder, IPC and an entrypoint (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const runtimes: DockerRuntime[] = [];
  let models = "";
  beforeAll(async () => {
    // A weights folder as `huggingface-cli download` leaves it (umask 022): readable by every user. The
    // container's root has no capability (no DAC_OVERRIDE): it reads a mount through its permission
    // bits like any other user, and mkdtemp's 0700 is closed to it whenever the tests are not root.
    models = await mkdtemp(join(tmpdir(), "speedgate-models-"));
    await writeFile(join(models, "profile.json"), JSON.stringify(BASELINE_PROFILE));
    // The profile names the engine's prompts file next to it, as the image's copy does.
    const prompts = Array.from({ length: 20 }, (_, index) => JSON.stringify(testPrompt(index)));
    await writeFile(join(models, BASELINE_PROFILE.promptsFile), `${prompts.join("\n")}\n`);
    await chmod(models, 0o755);
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
  });
  afterAll(async () => {
    await rm(models, { recursive: true, force: true });
  });

  /** The reference engine started by a shell that first prints what it sees, reading its profile from the folder it runs in. */
  function probingCommand(probe: string): string[] {
    return ["sh", "-c", `${probe}; exec node /opt/speedgate/cli.mjs sim-engine --port {port} --host {host} --profile profile.json`];
  }

  async function startBaseline(options: Omit<Parameters<typeof makeDockerRound>[0], "image" | "port">): Promise<RunningEngine> {
    if (!docker) throw new Error("no docker");
    const { round, runId } = makeDockerRound({ image, port: await getFreePort(), patch: null, ...options });
    const runtime = new DockerRuntime(docker, round, { logger: createRecordingLogger(), runId });
    runtimes.push(runtime);
    const signal = new AbortController().signal;
    const engine = await runtime.start("baseline", signal);
    await waitUntilHealthy({ engine, path: "/health", timeoutS: 30, intervalMs: 50, signal });
    return engine;
  }

  const writeProbe = 'if echo patched > /models/probe 2>/dev/null; then echo "mount: writable"; else echo "mount: read-only"; fi';

  it("serves the weights folder read-only by default: the engine reads it and cannot write to it", async () => {
    const engine = await startBaseline({
      baseline: { command: probingCommand(writeProbe), cwd: "/models" },
      docker: { mounts: [`${models}:/models`] },
    });
    expect(engine.logTail()).toContain("mount: read-only");
    expect(existsSync(join(models, "probe"))).toBe(false);
  });

  it("reads a mount through its permission bits only: a folder that only another user may read stays closed to the engine", async () => {
    const weights = await mkdtemp(join(tmpdir(), "speedgate-private-weights-"));
    try {
      await writeFile(join(weights, "config.json"), "{}");
      // Owned by someone other than the container's root (nobody, when the tests run as root), mode 0700.
      if (process.getuid?.() === 0) await chown(weights, 65534, 65534);
      const probe = (name: string) =>
        `if cat ${name}/config.json >/dev/null 2>&1; then echo "${name}: readable"; else echo "${name}: closed"; fi`;
      const closed = await startBaseline({
        baseline: { command: probingCommand(probe("/weights")), cwd: "/models" },
        docker: { mounts: [`${models}:/models`, `${weights}:/weights`] },
      });
      expect(closed.logTail()).toContain("/weights: closed");
      await chmod(weights, 0o755);
      const opened = await startBaseline({
        baseline: { command: probingCommand(probe("/weights")), cwd: "/models" },
        docker: { mounts: [`${models}:/models`, `${weights}:/weights`] },
      });
      expect(opened.logTail()).toContain("/weights: readable");
    } finally {
      await rm(weights, { recursive: true, force: true });
    }
  });

  it("lets a mount opt into writes", async () => {
    const engine = await startBaseline({
      baseline: { command: probingCommand(writeProbe), cwd: "/models" },
      docker: { mounts: [{ source: models, target: "/models", readOnly: false }] },
    });
    expect(engine.logTail()).toContain("mount: writable");
    expect(existsSync(join(models, "probe"))).toBe(true);
    await rm(join(models, "probe"), { force: true });
  });

  it("shares the host's IPC namespace (its /dev/shm) only with ipc: host", async () => {
    const marker = `speedgate-ipc-${randomUUID().slice(0, 8)}`;
    await writeFile(join("/dev/shm", marker), "");
    try {
      const probe = `if [ -e /dev/shm/${marker} ]; then echo "ipc: host"; else echo "ipc: own"; fi`;
      const shared = await startBaseline({
        baseline: { command: probingCommand(probe), cwd: "/models" },
        docker: { mounts: [`${models}:/models`], ipc: "host" },
      });
      expect(shared.logTail()).toContain("ipc: host");
      const own = await startBaseline({
        baseline: { command: probingCommand(probe), cwd: "/models" },
        docker: { mounts: [`${models}:/models`], ipc: "private" },
      });
      expect(own.logTail()).toContain("ipc: own");
    } finally {
      await rm(join("/dev/shm", marker), { force: true });
    }
  });

  describe("an image with its own ENTRYPOINT (vllm/vllm-openai's is `vllm serve`)", () => {
    let buildContext = "";
    let baselineImage = "";
    beforeAll(async () => {
      buildContext = await mkdtemp(join(tmpdir(), "speedgate-entrypoint-"));
      await writeFile(
        join(buildContext, "Dockerfile"),
        'ARG BASE\nFROM ${BASE}\nENTRYPOINT ["sh", "-c", "echo the image entrypoint ran: $*; exit 3", "--"]\n',
      );
    });
    afterAll(async () => {
      await rm(buildContext, { recursive: true, force: true });
      // Built baselines are kept by design; this one is the test's own.
      if (docker && baselineImage) await docker.getImage(baselineImage).remove({ force: true });
    });

    async function startWith(dockerOptions: Record<string, unknown>) {
      if (!docker) throw new Error("no docker");
      const { round, runId } = makeDockerRound({
        image,
        port: await getFreePort(),
        patch: null,
        baseline: {
          image: undefined,
          build: { context: buildContext, dockerfile: "Dockerfile", args: { BASE: image } },
          command: probingCommand("echo started"),
          cwd: "/opt/engine",
        },
        docker: dockerOptions,
      });
      const runtime = new DockerRuntime(docker, round, { logger: createRecordingLogger(), runId });
      runtimes.push(runtime);
      baselineImage = (await runtime.prepare("baseline", new AbortController().signal)).imageId ?? "";
      return await runtime.start("baseline", new AbortController().signal);
    }

    it("puts the command after the image's ENTRYPOINT when docker.entrypoint is not set", async () => {
      const engine = await startWith({});
      expect(await engine.exited).toMatchObject({ exitCode: 3 });
      expect(engine.logTail().join("\n")).toContain("the image entrypoint ran: sh -c");
    });

    it("runs the command as the whole command with docker.entrypoint: []", async () => {
      const engine = await startWith({ entrypoint: [] });
      await waitUntilHealthy({ engine, path: "/health", timeoutS: 30, intervalMs: 50, signal: new AbortController().signal });
      expect(engine.logTail()).toContain("started");
    });
  });
});
