import { afterAll, describe, expect, it } from "vitest";
import { LABEL_BASELINE_BASE } from "../../src/docker/prepare-commit-images.js";
import { LABEL_CREATED, LABEL_ROLE } from "../../src/docker/resource-labels.js";
import { runCli } from "../cli/support/sim-round.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { labelTestImage } from "../../harness/docker/label-test-image.js";

const context = dockerTestContext();
const DAY_MS = 24 * 60 * 60 * 1000;

describe.skipIf(!context)("speedgate cleanup --baselines (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A cached baseline as base/head mode labels it, made `ageDays` ago. */
  async function cachedBaseline(ageDays: number, base: string): Promise<string> {
    if (!docker) throw new Error("no Docker daemon");
    const made = await labelTestImage(docker, image, {
      [LABEL_ROLE]: "baseline",
      [LABEL_BASELINE_BASE]: base,
      [LABEL_CREATED]: new Date(Date.now() - ageDays * DAY_MS).toISOString(),
    });
    cleanups.push(made.remove);
    return made.image;
  }

  it("removes cached baselines built more than a week ago, and keeps newer ones and any still in use", async () => {
    if (!docker) return;
    const old = await cachedBaseline(10, "1".repeat(40));
    const fresh = await cachedBaseline(1, "2".repeat(40));
    const used = await cachedBaseline(10, "3".repeat(40));
    const holder = await docker.createContainer({ Image: used, Cmd: ["true"], HostConfig: { NetworkMode: "none" } });
    cleanups.push(async () => {
      await holder.remove({ force: true });
    });
    const { code, stdout } = await runCli(["cleanup", "--baselines"]);
    expect(code).toBe(0);
    expect(stdout).toContain(`removed ${old}`);
    expect(stdout).toContain(`kept ${used}: still in use`);
    expect(stdout).not.toContain(fresh);
    const exists = async (reference: string): Promise<boolean> =>
      await docker
        .getImage(reference)
        .inspect()
        .then(
          () => true,
          () => false,
        );
    expect(await exists(old)).toBe(false);
    expect(await exists(fresh)).toBe(true);
    expect(await exists(used)).toBe(true);
    // A shorter age takes the fresh one too.
    expect((await runCli(["cleanup", "--baselines", "--older-than-hours", "12"])).stdout).toContain(`removed ${fresh}`);
  }, 300_000);

  it("asks for at most one of --run-id, --stale or --baselines", async () => {
    const { code, logger } = await runCli(["cleanup", "--stale", "--baselines"]);
    expect(code).toBe(2);
    expect(logger.lines.map((line) => line.message).join("\n")).toContain("expected at most one of --run-id, --stale or --baselines");
  });
});
