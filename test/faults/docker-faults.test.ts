import Dockerode from "dockerode";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DockerRuntime } from "../../src/docker/docker-runtime.js";
import { sweepResources } from "../../src/docker/sweep-resources.js";
import { EngineFailureError } from "../../src/failure/engine-failure.js";
import { createRecordingLogger, silentLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { makeDockerRound, simEngineCommand } from "../support/docker/make-docker-round.js";
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
});

describe.skipIf(!context)("the Docker daemon goes away mid-round (real daemon behind a proxy socket the test cuts)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const proxy = new DockerSocketProxy();
  beforeAll(async () => await proxy.start());
  afterAll(async () => await proxy.stop());

  /*
   * KNOWN GAP (src/docker/container-engine.ts, src/round/run-round.ts): when the daemon's connection
   * drops, the log follow ends ("aborted") but container.wait() never settles, so the killed baseline
   * is never reported: the candidate runs once the daemon is back and the card has failure: null with
   * every prompt after the cut "excluded" (baseline failed: UND_ERR_SOCKET). Drop `.fails` once a lost
   * daemon connection ends the round as kind "infrastructure" naming the Docker daemon.
   */
  it.fails("KNOWN GAP: ends in a clear infrastructure error about the daemon, never a card blaming the engine or scoring without it", async () => {
    if (!docker) return;
    const { round, runId } = makeDockerRound({
      image,
      port: await getFreePort(),
      patch: null,
      prompts: 40,
      baseline: { command: simEngineCommand("--output-tokens", "200") },
    });
    const runtimeLog = createRecordingLogger();
    const runtime = new DockerRuntime(new Dockerode({ socketPath: proxy.path }), round, { logger: runtimeLog, runId });
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
            await docker.getContainer(info.Id).kill().catch(() => undefined);
          }
          await proxy.restore();
        })();
      },
    }).then(
      (card) => ({ card, error: null }),
      (error: unknown) => ({ card: null, error: error as Error }),
    );
    await cut.done;
    try {
      expect(cut.done, "the round never reached the baseline's benchmark").not.toBeNull();
      expect(outcome.error).not.toBeInstanceOf(EngineFailureError);
      if (outcome.card) {
        // A card is fine only if it blames the infrastructure, by name.
        expect(outcome.card.failure?.kind, JSON.stringify(runtimeLog.lines)).toBe("infrastructure");
        expect(`${outcome.card.failure?.label} ${outcome.card.failure?.summary}`).toMatch(/docker daemon/i);
      } else {
        expect(outcome.error?.message).toMatch(/docker daemon/i);
      }
      expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
    } finally {
      await sweepResources(docker, { runId }, silentLogger);
    }
  });
});
