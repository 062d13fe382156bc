import Dockerode from "dockerode";
import type { TestProject } from "vitest/node";
import {
  type MissingPrerequisite,
  failRunAtTeardown,
  refuseSkipWhenRequired,
  reportMissingPrerequisite,
} from "../prerequisites/missing-prerequisites.js";
import { type TestEngineImage, acquireTestEngineImage } from "../../../harness/docker/acquire-test-engine-image.js";
import { findRunLeftovers } from "./find-run-leftovers.js";
import { withStaleSweepLock } from "./with-stale-sweep-lock.js";

const SKIPPED = "the Docker tests (the Docker runtime, the action and app end to end with containers, the Docker faults)";

/**
 * Gets the test engine image once per test run when a Docker daemon answers, and lets go of it at the
 * end (removing it unless another run still holds it). Without a daemon or without busybox the Docker
 * tests skip, said again after the summary, unless SPEEDGATE_REQUIRE_DOCKER=1 (CI), where that is an error.
 * At the end, anything speedgate's labels mark that the run made and did not remove (containers,
 * networks, images, volumes) is removed and fails the run by name.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const docker = new Dockerode();
  const startedAt = Date.now();
  let missing: MissingPrerequisite | null = null;
  let held: TestEngineImage | null = null;
  try {
    await docker.ping();
  } catch (error) {
    missing = {
      what: "Docker daemon",
      skipped: SKIPPED,
      reason: `no Docker daemon answers (${(error as Error).message})`,
      fix: "sudo bash .ci/start-docker.sh (installs Debian's docker.io when missing and starts dockerd), or start your own daemon",
      requireVariable: "SPEEDGATE_REQUIRE_DOCKER",
    };
  }
  if (!missing) {
    try {
      held = await acquireTestEngineImage(docker);
    } catch (error) {
      const message = (error as Error).message;
      missing = {
        what: /busybox/i.test(message) ? "static busybox" : "test engine image",
        skipped: SKIPPED,
        reason: `the test engine image could not be built: ${message}`,
        fix: /busybox/i.test(message) ? "sudo apt-get install busybox-static" : "see the reason above",
        requireVariable: "SPEEDGATE_REQUIRE_DOCKER",
      };
    }
  }
  if (missing) {
    refuseSkipWhenRequired(missing);
    reportMissingPrerequisite(missing);
  }
  project.provide("speedgateDocker", held ? { available: true, image: held.image } : { available: false, reason: missing?.reason ?? "" });
  return async () => {
    if (!held) return;
    await held.release();
    // A sweep of resources whose maker is gone, like cleanup --stale: another test run on this machine
    // may be holding a killed run's container for its own sweep to find (the action's post step).
    const leftovers = await withStaleSweepLock(async () => {
      const found = await findRunLeftovers(docker, startedAt);
      await Promise.allSettled(found.map((leftover) => leftover.remove()));
      return found;
    });
    if (leftovers.length > 0) {
      failRunAtTeardown(
        `speedgate: the test run left ${leftovers.length} Docker resource(s) behind (removed now): ` +
          `${leftovers.map((leftover) => `${leftover.kind} ${leftover.name}`).join(", ")}`,
      );
    }
  };
}
