import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { listRunResources } from "../support/docker/list-run-resources.js";
import { SPEEDUP_PATCH, makeDockerRound } from "../../harness/docker/make-docker-round.js";
import { getFreePort } from "../support/get-free-port.js";
import { runStep, startStep } from "./support/action-step.js";
import { pullRequestEvent } from "./support/webhook-payloads.js";
import { withStaleSweepLock } from "../support/docker/with-stale-sweep-lock.js";

/*
 * The bundled action with the Docker runtime on the local daemon and the test engine image: the
 * round leaves no container behind, SIGINT stops the containers inside the runner's window, and when
 * main is killed outright the post step sweeps what carries the run's id.
 */

const context = dockerTestContext();
const event = { name: "pull_request", payload: pullRequestEvent("synchronize") };

describe.skipIf(!context)("the bundled action with Docker", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "speedgate-action-docker-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A round config file for the test image; the patch goes in through the action's `patch` input. */
  async function writeRound(name: string, prompts: number, requestIntervalMs: number): Promise<{ configPath: string; patchPath: string }> {
    const { round } = makeDockerRound({ image: context?.image ?? "", port: await getFreePort(), prompts });
    const { patch: _patch, ...candidate } = round.config.candidate;
    const folder = join(dir, name);
    const promptsPath = join(folder, "prompts.jsonl");
    await mkdir(folder, { recursive: true });
    await writeFile(promptsPath, round.prompts.map((prompt) => JSON.stringify(prompt)).join("\n"));
    const config = { ...round.config, candidate, bench: { ...round.config.bench, prompts: promptsPath, requestIntervalMs } };
    const configPath = join(folder, "round.yaml");
    await writeFile(configPath, stringify(config));
    const patchPath = join(folder, "speedup.patch");
    await writeFile(patchPath, SPEEDUP_PATCH);
    return { configPath, patchPath };
  }

  it("scores a round in containers and leaves none behind; the post step sweeps nothing", async () => {
    if (!context) return;
    const { configPath, patchPath } = await writeRound("passing", 10, 5);
    const workDir = join(dir, "passing-step");
    const step = await runStep({ entry: "index", workDir, event, inputs: { config: configPath, patch: patchPath } });
    expect(step.exitCode, step.stdout + step.stderr).toBe(0);
    expect(step.outputs).toMatchObject({ "gate-passed": "true", "prompts-total": "10", "failure-kind": "" });
    expect(step.state.runtime).toBe("docker");
    const runId = step.state["run-id"] ?? "";
    expect(await listRunResources(context.docker, runId)).toEqual({ containers: [], networks: [] });

    const post = await runStep({ entry: "post", workDir, event, state: step.state });
    expect(post.exitCode).toBe(0);
    expect(post.stdout).toMatch(new RegExp(`Swept run ${runId}: 0 containers, 0 networks, \\d+ images`));
    expect(post.stdout).not.toContain("::warning::");
  });

  it("stops the containers on SIGINT", async () => {
    if (!context) return;
    const { configPath, patchPath } = await writeRound("cancelled", 400, 25);
    const step = await startStep({
      entry: "index",
      workDir: join(dir, "cancelled-step"),
      event,
      inputs: { config: configPath, patch: patchPath },
    });
    await step.waitForLine(/^baseline: \d+\/400 prompts done/);
    step.child.kill("SIGINT");
    const result = await step.finished;
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^::error::round cancelled/m);
    expect(await listRunResources(context.docker, result.state["run-id"] ?? "")).toEqual({ containers: [], networks: [] });
  });

  it("sweeps in the post step what a killed main left running", async () => {
    if (!context) return;
    const { configPath, patchPath } = await writeRound("killed", 400, 25);
    const workDir = join(dir, "killed-step");
    const step = await startStep({ entry: "index", workDir, event, inputs: { config: configPath, patch: patchPath } });
    await step.waitForLine(/^baseline: \d+\/400 prompts done/);
    // From the kill to the post step the run's container is stale: no other test's --stale sweep may take it.
    await withStaleSweepLock(async () => {
      // The runner's last resort after SIGINT and SIGTERM: nothing in main gets to clean up.
      step.child.kill("SIGKILL");
      const result = await step.finished;
      const runId = result.state["run-id"] ?? "";
      expect(runId).not.toBe("");
      expect((await listRunResources(context.docker, runId)).containers).toHaveLength(1);

      const post = await runStep({ entry: "post", workDir, event, state: result.state });
      expect(post.exitCode).toBe(0);
      expect(post.stdout).toMatch(new RegExp(`Swept run ${runId}: 1 containers`));
      expect(await listRunResources(context.docker, runId)).toEqual({ containers: [], networks: [] });
    });
  });
});
