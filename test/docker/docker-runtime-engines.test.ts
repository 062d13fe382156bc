import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { isolatedBridgeName } from "../../src/docker/create-isolated-network.js";
import { DockerRuntime } from "../../src/docker/docker-runtime.js";
import { LABEL_RUN_ID } from "../../src/docker/resource-labels.js";
import { waitUntilHealthy } from "../../src/engine/wait-until-healthy.js";
import type { RunningEngine } from "../../src/engine/engine-runtime.js";
import { EngineFailureError } from "../../src/vocabulary/engine-failure.js";
import { createRecordingLogger } from "../../src/logger.js";
import { CUDA_OOM_LOG } from "../../harness/docker/build-test-engine-image.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { makeDockerRound, simEngineCommand } from "../../harness/docker/make-docker-round.js";
import { getFreePort } from "../support/get-free-port.js";

const context = dockerTestContext();

async function startupFailure(engine: RunningEngine, timeoutS = 30): Promise<EngineFailureError> {
  const error = await waitUntilHealthy({ engine, path: "/health", timeoutS, intervalMs: 50, signal: new AbortController().signal }).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof EngineFailureError)) throw new Error(`expected an EngineFailureError, got ${String(error)}`);
  return error;
}

async function waitForLogMatch(engine: RunningEngine, pattern: RegExp): Promise<RegExpExecArray> {
  const exited = engine.exited.then(() => "exited" as const);
  const find = (): RegExpExecArray | null =>
    engine.logTail().reduce<RegExpExecArray | null>((found, line) => found ?? pattern.exec(line), null);
  for (let match = find(); ; match = find()) {
    if (match) return match;
    const state = await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20))]);
    if (state === "exited" && !find()) throw new Error(`the engine exited before printing ${pattern}:\n${engine.logTail().join("\n")}`);
  }
}

async function waitForLogLine(engine: RunningEngine, line: string): Promise<void> {
  await waitForLogMatch(engine, new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
}

describe.skipIf(!context)("DockerRuntime engines (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const runtimes: DockerRuntime[] = [];
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
  });

  async function setUp(options: Omit<Parameters<typeof makeDockerRound>[0], "image" | "port">) {
    if (!docker) throw new Error("no docker");
    const { round, runId } = makeDockerRound({ image, port: await getFreePort(), patch: null, ...options });
    const runtime = new DockerRuntime(docker, round, { logger: createRecordingLogger(), runId });
    runtimes.push(runtime);
    return { runtime, runId, round };
  }

  async function containerOf(runId: string) {
    if (!docker) throw new Error("no docker");
    const [info] = await docker.listContainers({ all: true, filters: { label: [`${LABEL_RUN_ID}=${runId}`] } });
    if (!info) throw new Error(`no container of run ${runId}`);
    return await docker.getContainer(info.Id).inspect();
  }

  it("serves on the host network, then stop() and dispose() leave nothing behind", async () => {
    if (!docker) return;
    const { runtime, runId, round } = await setUp({});
    const engine = await runtime.start("baseline", new AbortController().signal);
    expect(engine.baseUrl).toBe(`http://127.0.0.1:${round.config.port}`);
    await waitUntilHealthy({ engine, path: "/health", timeoutS: 30, intervalMs: 50, signal: new AbortController().signal });
    const response = await fetch(new URL("/health", engine.baseUrl));
    expect(response.status).toBe(200);
    await engine.stop();
    await engine.stop();
    const exit = await engine.exited;
    expect(exit.oomKilled).toBe(false);
    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it("echoes the engine's log at debug as [role] lines, as the process runtime does, so --verbose shows it", async () => {
    if (!docker) return;
    const logger = createRecordingLogger();
    const { round, runId } = makeDockerRound({
      image,
      port: await getFreePort(),
      patch: null,
      baseline: { command: ["sh", "-c", "echo loading weights; echo '\u001b[31mready\u001b[0m'; sleep 30"] },
    });
    const runtime = new DockerRuntime(docker, round, { logger, runId });
    runtimes.push(runtime);
    const engine = await runtime.start("baseline", new AbortController().signal);
    await waitForLogMatch(engine, /ready/);
    // The echo is cleaned as the card's tail is: no colours.
    expect(
      logger.lines.filter((line) => line.level === "debug" && line.message.startsWith("[baseline] ")).map((line) => line.message),
    ).toEqual(expect.arrayContaining(["[baseline] loading weights", "[baseline] ready"]));
  });

  it("takes 32 MiB printed without a newline into a bounded tail, and the lines after it still arrive", async () => {
    if (!docker) return;
    // The attack: one endless line. The Docker log tail used to keep it whole and re-split it on every chunk.
    const print = "process.stdout.write('x'.repeat(32 * 1024 * 1024)); console.log(); console.log('after the long line')";
    const { runtime } = await setUp({ baseline: { command: ["sh", "-c", `node -e "${print}" && exec sleep 600`] } });
    const engine = await runtime.start("baseline", new AbortController().signal);
    await waitForLogLine(engine, "after the long line");
    const tail = engine.logTail();
    expect(tail.at(-1)).toBe("after the long line");
    const long = tail.at(-2) ?? "";
    expect(long.length).toBeLessThanOrEqual(2_000);
    const cut = /^x+\[… (\d+) characters cut …\]x+$/.exec(long);
    expect(cut, long.slice(0, 200)).not.toBeNull();
    expect(long.length - `[… ${cut?.[1]} characters cut …]`.length + Number(cut?.[1])).toBe(32 * 1024 * 1024);
  });

  it("reports a CUDA OOM traceback at startup as cuda_oom with exit code and log tail, at once", async () => {
    if (!docker) return;
    const { runtime, runId } = await setUp({ baseline: { command: simEngineCommand("--crash-log", CUDA_OOM_LOG) } });
    const engine = await runtime.start("baseline", new AbortController().signal);
    const { failure } = await startupFailure(engine, 600);
    expect(failure).toMatchObject({ engine: "baseline", stage: "startup", kind: "cuda_oom", exitCode: 1 });
    expect(failure.label).toMatch(/CUDA graph capture/);
    expect(failure.summary).toMatch(/^torch.OutOfMemoryError: CUDA out of memory/);
    expect(failure.logTail.some((line) => line.includes("capture_one_batch_size"))).toBe(true);
    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it("reports a container killed with exit 137 as killed by SIGKILL, not OOMKilled", async () => {
    if (!docker) return;
    const { runtime, runId } = await setUp({ baseline: { command: ["sh", "-c", "echo loading weights; exec sleep 600"] } });
    const engine = await runtime.start("baseline", new AbortController().signal);
    const inspected = await containerOf(runId);
    const failed = startupFailure(engine, 600);
    await docker.getContainer(inspected.Id).kill({ signal: "SIGKILL" });
    const { failure } = await failed;
    expect(failure).toMatchObject({ stage: "startup", kind: "host_oom", exitCode: 137, signal: "SIGKILL" });
    expect(failure.label).toMatch(/SIGKILL/);
    expect(await engine.exited).toEqual({ exitCode: 137, signal: "SIGKILL", oomKilled: false });
    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it("reports an engine that never answers its health check as startup_timeout", async () => {
    if (!docker) return;
    const { runtime, runId } = await setUp({ baseline: { command: simEngineCommand("--never-healthy") } });
    const engine = await runtime.start("baseline", new AbortController().signal);
    const { failure } = await startupFailure(engine, 1);
    expect(failure).toMatchObject({ stage: "startup", kind: "startup_timeout", exitCode: null });
    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it(
    "runs isolated engines on a labelled internal network, routed only " +
      "through it, with no privileges and only the config's environment",
    async () => {
      if (!docker) return;
      process.env.SPEEDGATE_TEST_RUNNER_SECRET = "must-not-leak";
      const { runtime, runId, round } = await setUp({
        docker: { network: "isolated" },
        baseline: { command: ["sh", "-c", "cat /proc/net/route; env; echo listed; exec sleep 600"], env: { ENGINE_FLAG: "on" } },
      });
      const engine = await runtime.start("baseline", new AbortController().signal);
      const inspected = await containerOf(runId);
      await waitForLogLine(engine, "listed");

      const networkName = `speedgate-${runId}`;
      const network = (await docker.getNetwork(networkName).inspect()) as {
        Internal: boolean;
        Labels: Record<string, string>;
        Options: Record<string, string>;
      };
      expect(network.Internal).toBe(true);
      // The host's side of the network has the name the runner's one firewall rule matches (sgb-+), and the host has that interface.
      const bridge = network.Options["com.docker.network.bridge.name"] ?? "";
      expect(bridge).toBe(isolatedBridgeName(runId));
      expect(bridge).toMatch(/^sgb-[0-9a-f]{11}$/);
      expect(existsSync(`/sys/class/net/${bridge}`)).toBe(true);
      expect(network.Labels).toMatchObject({ [LABEL_RUN_ID]: runId, "speedgate.role": "network" });
      expect(Object.keys(inspected.NetworkSettings.Networks)).toEqual([networkName]);
      const address = inspected.NetworkSettings.Networks[networkName]?.IPAddress ?? "";
      expect(engine.baseUrl).toBe(`http://${address}:${round.config.port}`);

      // /proc/net/route (little-endian hex): every route leaves through the internal network's one
      // interface, and a default route, if the daemon sets one, points at that network's own gateway,
      // where the daemon's isolation rules drop anything bound elsewhere. Nothing is sent to check.
      const routes = engine
        .logTail()
        .filter((line) => /^\S+\t[0-9A-F]{8}\t/.test(line))
        .map((line) => line.split("\t"));
      expect(routes.length).toBeGreaterThan(0);
      expect(new Set(routes.map((fields) => fields[0]))).toEqual(new Set(["eth0"]));
      const gateway = (network as unknown as { IPAM: { Config: Array<{ Gateway?: string }> } }).IPAM.Config[0]?.Gateway ?? "";
      const gatewayHex = gateway
        .split(".")
        .reverse()
        .map((part) => Number(part).toString(16).padStart(2, "0"))
        .join("")
        .toUpperCase();
      for (const fields of routes.filter((route) => route[1] === "00000000")) expect(fields[2]).toBe(gatewayHex);

      expect(inspected.HostConfig.Privileged).toBe(false);
      expect(inspected.HostConfig.SecurityOpt).toEqual(["no-new-privileges"]);
      expect(inspected.HostConfig.ShmSize).toBe(64 * 1024 * 1024);
      expect(inspected.HostConfig.Ulimits).toEqual([{ Name: "nofile", Soft: 4096, Hard: 4096 }]);
      expect(inspected.Config.Labels).toMatchObject({ [LABEL_RUN_ID]: runId, "speedgate.role": "baseline" });
      expect(engine.logTail()).toContain("ENGINE_FLAG=on");
      expect(engine.logTail().join("\n")).not.toContain("must-not-leak");

      await runtime.dispose();
      expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
    },
  );

  it("creates engines with no capability, private IPC, a capped log and bounded memory, shared memory and tasks by default", async () => {
    if (!docker) return;
    // What root in the container may do: its capabilities, and two things Docker's default set allows.
    const probe = [
      "const fs = require('fs');",
      "console.log(/^CapEff:.*$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[0]);",
      "try { fs.chownSync('/tmp', 1234, 1234); console.log('chown allowed'); } catch (error) { console.log('chown ' + error.code); }",
      "try { process.setuid(1234); console.log('setuid allowed'); } catch (error) { console.log('setuid ' + error.code); }",
      "console.log('probed'); setInterval(() => {}, 1000);",
    ].join(" ");
    // The shared test config sets shmSize, ulimits and the host network; these are the defaults.
    const { runtime, runId } = await setUp({ baseline: { command: ["node", "-e", probe] }, docker: { shmSize: undefined } });
    const engine = await runtime.start("baseline", new AbortController().signal);
    const inspected = await containerOf(runId);
    await waitForLogLine(engine, "probed");
    expect(engine.logTail()).toEqual(expect.arrayContaining(["CapEff:\t0000000000000000", "chown EPERM", "setuid EPERM"]));

    const memTotal = ((await docker.info()) as { MemTotal: number }).MemTotal;
    const memory = Math.floor(memTotal * 0.9);
    expect(inspected.HostConfig).toMatchObject({
      CapDrop: ["ALL"],
      Privileged: false,
      SecurityOpt: ["no-new-privileges"],
      IpcMode: "private",
      LogConfig: { Type: "json-file", Config: { "max-size": "64m", "max-file": "2" } },
      Memory: memory,
      MemorySwap: memory,
      ShmSize: Math.min(16 * 1024 ** 3, Math.floor(memory / 2)),
      PidsLimit: 16_384,
    });
    expect(inspected.HostConfig.CapAdd ?? []).toEqual([]);
    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it("holds an engine that forks without end at docker.pidsLimit", async () => {
    if (!docker) return;
    const fork = [
      "const { spawn } = require('child_process'); let started = 0, refused = 0;",
      "const next = (left) => { if (left === 0) return console.log('started ' + started + ' refused ' + refused);",
      "  const child = spawn('sleep', ['600']); child.on('spawn', () => { started++; next(left - 1); }); child.on('error', () => { " +
        "refused++; next(left - 1); }); };",
      "next(200); setInterval(() => {}, 1000);",
    ].join(" ");
    const { runtime } = await setUp({ baseline: { command: ["node", "-e", fork] }, docker: { pidsLimit: 64 } });
    const engine = await runtime.start("baseline", new AbortController().signal);
    const [, started, refused] = await waitForLogMatch(engine, /^started (\d+) refused (\d+)$/);
    expect(Number(started)).toBeLessThan(64);
    expect(Number(refused)).toBeGreaterThan(100);
    await runtime.dispose();
  });

  it("asks for GPUs through DeviceRequests and says gpu_unavailable when the daemon has no GPU driver", async () => {
    if (!docker) return;
    const { runtime, runId } = await setUp({ docker: { gpus: ["0", "1"] } });
    const error = await runtime.start("baseline", new AbortController().signal).then(
      () => null,
      (caught: unknown) => caught,
    );
    const inspected = await containerOf(runId);
    expect(inspected.HostConfig.DeviceRequests).toEqual([
      { Driver: "nvidia", Count: 0, DeviceIDs: ["0", "1"], Capabilities: [["gpu"]], Options: null },
    ]);
    expect(error).toBeInstanceOf(EngineFailureError);
    expect((error as EngineFailureError).failure).toMatchObject({ stage: "startup", kind: "gpu_unavailable" });
    expect((error as EngineFailureError).failure.summary).toMatch(/could not select device driver/);
    await runtime.dispose();
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });
});
