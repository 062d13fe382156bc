import { randomUUID } from "node:crypto";
import Dockerode from "dockerode";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DockerRuntime } from "../../src/docker/docker-runtime.js";
import { sweepResources } from "../../src/docker/sweep-resources.js";
import { type Logger, createRecordingLogger, silentLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import { describeVerdict } from "../../src/scorecard/render/describe-card.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { makeDockerRound, simEngineCommand } from "../../harness/docker/make-docker-round.js";
import { countConnections } from "../support/count-connections.js";
import { getFreePort } from "../support/get-free-port.js";
import { DockerSocketProxy } from "./support/docker-socket-proxy.js";

/*
 * Faults, nothing left behind: the rows against containers that test/docker/docker-round.test.ts
 * does not already play (it has dies at startup, hangs at startup, dies halfway and SIGKILL, each
 * checked for leftovers), plus the Docker daemon going away mid-round.
 */

const context = dockerTestContext();

const byId = (card: Scorecard, id: string) => card.prompts.find((prompt) => prompt.id === id);

describe.skipIf(!context)("faults with runtime: docker (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const runIds: string[] = [];
  afterEach(async () => {
    for (const runId of runIds.splice(0)) {
      if (!docker) continue;
      const left = await listRunResources(docker, runId);
      // Whatever the row found, the next rows must not inherit its containers.
      await sweepResources(docker, { runId }, silentLogger);
      expect(left, `left behind by run ${runId}`).toEqual({ containers: [], networks: [] });
    }
  });

  async function playRound(options: Omit<Parameters<typeof makeDockerRound>[0], "image" | "port">): Promise<Scorecard> {
    const { round, runId } = makeDockerRound({ image, port: await getFreePort(), patch: null, ...options });
    runIds.push(runId);
    return await runRound({ round, logger: createRecordingLogger(), signal: new AbortController().signal, runId });
  }

  it("engine answers HTTP 500 for one prompt and a broken stream for another: zeroed with reasons, the rest scored", async () => {
    const card = await playRound({ candidate: { command: simEngineCommand("--http-500", "p3", "--malformed-sse", "p4") } });
    expect(card.failure).toBeNull();
    expect(byId(card, "p3")).toMatchObject({ status: "zeroed", score: 0 });
    expect(byId(card, "p3")?.reason).toContain("500");
    expect(byId(card, "p4")).toMatchObject({ status: "zeroed", score: 0 });
    expect(byId(card, "p1")?.status).toBe("scored");
  });

  it("the benchmark client times out (bench.requestTimeoutS: 1) on an engine that never sends a token", async () => {
    const { round, runId } = makeDockerRound({
      image,
      port: await getFreePort(),
      patch: null,
      prompts: 3,
      candidate: { command: simEngineCommand("--ttft-ms", "60000") },
    });
    runIds.push(runId);
    const timed = { ...round, config: { ...round.config, bench: { ...round.config.bench, requestTimeoutS: 1 } } };
    const card = await runRound({ round: timed, logger: createRecordingLogger(), signal: new AbortController().signal, runId });
    expect(card.failure).toBeNull();
    expect(card.prompts.every((prompt) => prompt.status === "zeroed" && /request timeout of 1 s/.test(prompt.reason ?? ""))).toBe(true);
  });
  it("the candidate's postPatch reaches for a service on the runner: no network in the build, the card says the build failed", async () => {
    const { port, connections, close } = await countConnections();
    try {
      const reach =
        `require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', (error) => { ` +
        `console.log('exfiltration failed: ' + error.code); process.exit(1); }); // ${randomUUID()}`;
      const card = await playRound({ candidate: { postPatch: [["node", "-e", reach]] } });
      expect(card.failure).toMatchObject({ engine: "candidate", stage: "build", kind: "build_error" });
      expect(card.failure?.logTail.join("\n")).toMatch(/exfiltration failed: E(CONNREFUSED|NETUNREACH)/);
      expect(card.gate.passed).toBe(false);
      expect(connections()).toBe(0);
    } finally {
      await close();
    }
  });

  it("the candidate forks until refused: held at docker.pidsLimit, it fails at startup and nothing is left", async () => {
    const fork = [
      "const { spawn } = require('child_process'); let started = 0, refused = 0;",
      "const next = (left) => { if (left === 0) { console.error('RuntimeError: could not start the workers: started ' + started + ', " +
        "refused ' + refused); process.exit(1); }",
      "  const child = spawn('sleep', ['600']); child.on('spawn', () => { started++; next(left - 1); }); child.on('error', () => { " +
        "refused++; next(left - 1); }); };",
      "next(500);",
    ].join(" ");
    const card = await playRound({ candidate: { command: ["node", "-e", fork] }, docker: { pidsLimit: 64 } });
    expect(card.failure).toMatchObject({ engine: "candidate", stage: "startup", kind: "exited", exitCode: 1 });
    const [, started] = /started (\d+), refused \d+/.exec(card.failure?.summary ?? "") ?? [];
    expect(Number(started)).toBeLessThan(64);
  });

  it("engine prints 32 MiB without a newline as it starts: the harness is not stalled, the round is scored", async () => {
    // Before the shared bounded buffer, the Docker log tail re-split this one unfinished line on every
    // chunk: 33 s of blocked event loop for 32 MiB, growing quadratically, past the health timeout.
    const endless = ["sh", "-c", `node -e "process.stdout.write('x'.repeat(32 * 1024 * 1024))" && exec "$0" "$@"`, ...simEngineCommand()];
    const card = await playRound({ baseline: { command: endless } });
    expect(card.failure).toBeNull();
    expect(card.promptsScored).toBe(card.prompts.length);
  });
});

describe.skipIf(!context)("the Docker daemon goes away mid-round (real daemon behind a proxy socket the test cuts)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const proxy = new DockerSocketProxy();
  beforeAll(async () => await proxy.start());
  afterAll(async () => await proxy.stop());

  /*
   * The log follow ends with a socket error while container.wait() (its response begun) never
   * settles: the engine's exit must come from the lost connection, as an infrastructure failure
   * that names the daemon, and the candidate must never start on what is left.
   */
  it.each([{ back: "at once" }, { back: "only once the runtime's cleanup retries" }])(
    "ends in a clear infrastructure error about the daemon, never a card blaming the engine or scoring without it (daemon back $back)",
    async ({ back }) => {
      if (!docker) return;
      const backAtOnce = back === "at once";
      const { round, runId } = makeDockerRound({
        image,
        port: await getFreePort(),
        patch: null,
        prompts: 40,
        // Every answer after the first hangs before its end until the engine goes: the cut is set off by
        // the first answer, so the rest are in flight when it lands however late a loaded machine runs it
        // (a pace alone, even 200 tokens 20 ms apart, let the baseline finish every prompt first under load).
        baseline: { command: simEngineCommand("--hold-after-requests", "1") },
      });
      const runtimeLog = createRecordingLogger();
      const restored: { done: Promise<void> | null } = { done: null };
      const logger: Logger = {
        ...runtimeLog,
        warn: (message) => {
          runtimeLog.warn(message);
          // The daemon returns when dispose finds it away and retries, which proves the retry sweeps.
          if (!backAtOnce && /removing the run's containers and network again/.test(message)) restored.done ??= proxy.restore();
        },
      };
      const runtime = new DockerRuntime(new Dockerode({ socketPath: proxy.path }), round, { logger, runId });
      // An object, so the callback's assignment is visible to the checks after the round.
      const cut: { done: Promise<void> | null } = { done: null };
      const outcome = await runRound({
        round,
        runtime,
        runId,
        logger: createRecordingLogger(),
        signal: new AbortController().signal,
        onProgress: (event) => {
          if (cut.done || event.type !== "benchmark" || event.role !== "baseline" || event.done < 1) return;
          // A daemon restart: connections drop, the API is away, and its containers are stopped with it.
          cut.done = (async () => {
            await proxy.cut();
            for (const info of await docker.listContainers({ all: true, filters: { label: [`speedgate.run-id=${runId}`] } })) {
              await docker
                .getContainer(info.Id)
                .kill()
                .catch(() => undefined);
            }
            if (backAtOnce) await proxy.restore();
          })();
        },
      }).then(
        (card) => ({ card, error: null }),
        (error: unknown) => ({ card: null, error: error as Error }),
      );
      await cut.done;
      try {
        if (!backAtOnce) expect(restored.done, "dispose never retried while the daemon was away").not.toBeNull();
        expect(cut.done, "the round never reached the baseline's benchmark").not.toBeNull();
        expect(outcome.error, outcome.error?.stack).toBeNull();
        const card = outcome.card;
        if (!card) return;
        expect(card.failure, JSON.stringify(runtimeLog.lines)).toMatchObject({
          engine: "baseline",
          stage: "benchmark",
          kind: "infrastructure",
        });
        expect(`${card.failure?.label} ${card.failure?.summary}`).toMatch(/docker daemon/i);
        expect(card.failure?.hint).toMatch(/systemctl status docker/);
        expect(card.failure?.hint).toMatch(/speedgate cleanup --stale/);
        expect(card.gate.passed).toBe(false);
        expect(describeVerdict(card)).toEqual({
          passed: false,
          outcome: "none",
          headline:
            "⚠️ No verdict: the infrastructure failed, not the patch (the Docker daemon went away during the baseline engine's benchmark)",
        });
        // Nothing is scored on a measurement the daemon cut, and the candidate never ran.
        expect(card.promptsScored).toBe(0);
        expect(card.prompts.filter((prompt) => prompt.candidate !== null)).toEqual([]);
        expect(card.roundScore).toBeNull();
        const cutOff = card.prompts.filter((prompt) => prompt.status === "excluded");
        expect(cutOff.length, "no prompt was cut off by the daemon going away").toBeGreaterThan(0);
        expect(cutOff.filter((prompt) => !/docker daemon went away/i.test(prompt.reason ?? ""))).toEqual([]);
        expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
      } finally {
        await proxy.restore();
        await sweepResources(docker, { runId }, silentLogger);
      }
    },
  );

  it.each([
    { cutAt: "preparing", stage: "build" },
    { cutAt: "starting", stage: "startup" },
  ] as const)(
    "the daemon is away when the baseline is $cutAt: infrastructure at $stage, the candidate never starts, nothing left",
    async ({ cutAt, stage }) => {
      if (!docker) return;
      const { round, runId } = makeDockerRound({ image, port: await getFreePort(), patch: null, prompts: 2 });
      const runtime = new DockerRuntime(new Dockerode({ socketPath: proxy.path }), round, { logger: createRecordingLogger(), runId });
      const events: string[] = [];
      let back: Promise<void> = Promise.resolve();
      const card = await runRound({
        round,
        runtime,
        runId,
        logger: createRecordingLogger(),
        signal: new AbortController().signal,
        onProgress: (event) => {
          events.push(`${event.type} ${event.role}`);
          if (event.type === cutAt && event.role === "baseline") void proxy.cut();
          // The daemon comes back after the failure, so the runtime's dispose can sweep the run.
          if (event.type === "failed") back = proxy.restore();
        },
      });
      await back;
      try {
        expect(card.failure).toMatchObject({ engine: "baseline", stage, kind: "infrastructure" });
        expect(card.failure?.label).toMatch(/docker daemon went away/i);
        expect(card.gate.passed).toBe(false);
        // The candidate is prepared before any engine starts (once the baseline's image is there), and is never started.
        expect(events.filter((event) => event.endsWith("candidate"))).toEqual(
          cutAt === "preparing" ? ["skipped candidate"] : ["preparing candidate", "skipped candidate"],
        );
        expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
      } finally {
        await proxy.restore();
        await sweepResources(docker, { runId }, silentLogger);
      }
    },
  );
});
