import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type Dockerode from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { LABEL_RUN_ID } from "../../src/docker/resource-labels.js";
import { createRecordingLogger } from "../../src/logger.js";
import { captureStream } from "../support/capture-stream.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { writeDockerRound } from "../support/docker/write-docker-round.js";
import { getFreePort } from "../support/get-free-port.js";
import { speedgateEntryArgs } from "../../src/engine/locate-speedgate.js";
import { withStaleSweepLock } from "../support/docker/with-stale-sweep-lock.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const context = dockerTestContext();

/** Resolves when the daemon reports a container of the run started (an event, not a poll). */
async function containerStarted(docker: Dockerode, runId: string, child: ChildProcess, sinceS: number): Promise<string> {
  // `since` replays events from before the subscription, so a container that started first is not missed.
  const events = await docker.getEvents({
    since: sinceS,
    filters: { type: ["container"], event: ["start"], label: [`${LABEL_RUN_ID}=${runId}`] },
  });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`speedgate run exited (${code}) before starting a container`))),
  );
  try {
    const first = (async () => {
      for await (const chunk of events) return (JSON.parse(String(chunk)) as { id: string }).id;
      throw new Error("the event stream ended");
    })();
    return await Promise.race([first, exited]);
  } finally {
    (events as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
}

/** Polls `docker ps -a` for the run's containers until none is left or the deadline passes; returns when it emptied. */
async function containersGoneWithin(docker: Dockerode, runId: string, deadlineMs: number, since: number): Promise<number | null> {
  while (performance.now() - since < deadlineMs) {
    const { containers } = await listRunResources(docker, runId);
    if (containers.length === 0) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

describe.skipIf(!context)("speedgate run with Docker under signals (real daemon)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-docker-signals-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function startRun(name: string): Promise<{ child: ChildProcess; runId: string; exited: Promise<number | null>; sinceS: number }> {
    // An engine that ignores SIGTERM (sh as pid 1 has no handler), so stopping it takes docker.stopTimeoutS and a SIGKILL.
    const { configPath, runId } = await writeDockerRound(join(dir, name), {
      image: context?.image ?? "",
      port: await getFreePort(),
      health: { timeoutS: 600 },
      baseline: { command: ["sh", "-c", "echo loading weights; exec sleep 600"] },
      docker: { stopTimeoutS: 3 },
    });
    const sinceS = Math.floor(Date.now() / 1000) - 1;
    const child = spawn(
      process.execPath,
      [...speedgateEntryArgs(), "run", "--config", configPath, "--out", join(dir, name, "out"), "--run-id", runId],
      {
        cwd: root,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    child.stderr?.resume();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    return { child, runId, exited, sinceS };
  }

  // Removed before the process exits, which is what a cancelled job needs; the 30 s bound only ends a
  // hang (on a quiet machine it takes about docker.stopTimeoutS, well inside GitHub's 7.5 s).
  it("removes the run's containers on SIGTERM before it exits", async () => {
    if (!context) return;
    const { docker } = context;
    const { child, runId, exited, sinceS } = await startRun("sigterm");
    await containerStarted(docker, runId, child, sinceS);
    const signalled = performance.now();
    child.kill("SIGTERM");
    const goneAfterMs = await containersGoneWithin(docker, runId, 30_000, signalled);
    expect(goneAfterMs, "containers still there 30 s after SIGTERM").not.toBeNull();
    expect(await exited).toBe(130);
    expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
  });

  it("leaves a SIGKILLed run's containers for `speedgate cleanup --stale`, which removes them", async () => {
    if (!context) return;
    const { docker } = context;
    const { child, runId, exited, sinceS } = await startRun("sigkill");
    await containerStarted(docker, runId, child, sinceS);
    // The sweep takes every stale run's containers, another test's killed run's too: not while one waits for its own sweep.
    await withStaleSweepLock(async () => {
      child.kill("SIGKILL");
      await exited;
      expect((await listRunResources(docker, runId)).containers).toHaveLength(1);

      const stdout = captureStream();
      const code = await main(["cleanup", "--stale"], { stdout, logger: createRecordingLogger(), signal: new AbortController().signal });
      expect(code).toBe(0);
      expect(stdout.text()).toMatch(/removed [1-9]\d* container\(s\)/);
      expect(await listRunResources(docker, runId)).toEqual({ containers: [], networks: [] });
    });
  });
});
