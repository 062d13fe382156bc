import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { makeResourceLabels } from "../../src/docker/resource-labels.js";
import { createRecordingLogger } from "../../src/logger.js";
import { captureStream } from "../support/capture-stream.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { withStaleSweepLock } from "../support/docker/with-stale-sweep-lock.js";

const context = dockerTestContext();

describe.skipIf(!context)("speedgate cleanup --run-id (real daemon)", () => {
  it("removes the labelled containers and networks of that run only, and keeps a live run's for --stale", async () => {
    if (!context) return;
    const { docker, image } = context;
    const [target, other] = [`cleanup-${randomUUID().slice(0, 8)}`, `cleanup-${randomUUID().slice(0, 8)}`];
    for (const runId of [target, other]) {
      await docker.createNetwork({ Name: `speedgate-${runId}`, Internal: true, Labels: makeResourceLabels(runId, "network") });
      await docker.createContainer({
        Image: image,
        Cmd: ["true"],
        Labels: makeResourceLabels(runId, "baseline"),
        HostConfig: { NetworkMode: `speedgate-${runId}` },
      });
    }
    try {
      const run = async (args: string[]) => {
        const stdout = captureStream();
        const code = await main(["cleanup", ...args], { stdout, logger: createRecordingLogger(), signal: new AbortController().signal });
        return { code, text: stdout.text() };
      };
      // Made by this (live) process: --stale leaves both runs alone (and, run daemon-wide, must not take another test's killed run).
      await withStaleSweepLock(() => run(["--stale"]));
      expect((await listRunResources(docker, target)).containers).toHaveLength(1);
      expect(await run(["--run-id", target])).toEqual({
        code: 0,
        text: `removed 1 container(s), 1 network(s), 0 image(s) of run ${target}\n`,
      });
      expect(await listRunResources(docker, target)).toEqual({ containers: [], networks: [] });
      expect(await listRunResources(docker, other)).toEqual({ containers: [expect.any(String)], networks: [`speedgate-${other}`] });
    } finally {
      await main(["cleanup", "--run-id", other], {
        stdout: captureStream(),
        logger: createRecordingLogger(),
        signal: new AbortController().signal,
      });
    }
  });
});
