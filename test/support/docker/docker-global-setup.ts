import Dockerode from "dockerode";
import type { TestProject } from "vitest/node";
import { type TestEngineImage, acquireTestEngineImage } from "./acquire-test-engine-image.js";

/** Said before the tests and again after vitest's summary, where a reader of the run looks last. */
function skipNotice(reason: string): string {
  return `\nspeedgate: the Docker tests were SKIPPED: ${reason}.\nSet SPEEDGATE_REQUIRE_DOCKER=1 to make this an error (.ci/run does).\n`;
}

/**
 * Gets the test engine image once per test run when a Docker daemon answers, and lets go of it at the
 * end (removing it unless another run still holds it). Without a daemon or without busybox the Docker
 * tests skip with a notice that names the fix, unless SPEEDGATE_REQUIRE_DOCKER=1 (CI), where that is an error.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const docker = new Dockerode();
  let reason: string | null = null;
  let held: TestEngineImage | null = null;
  try {
    await docker.ping();
  } catch (error) {
    reason = `no Docker daemon answers (${(error as Error).message}); start one (.ci/start-docker.sh installs and starts Debian's docker.io)`;
  }
  if (!reason) {
    try {
      held = await acquireTestEngineImage(docker);
    } catch (error) {
      reason = `the test engine image could not be built: ${(error as Error).message}`;
    }
  }
  if (reason && process.env.SPEEDGATE_REQUIRE_DOCKER === "1") throw new Error(`SPEEDGATE_REQUIRE_DOCKER=1 but ${reason}`);
  if (reason) process.stderr.write(skipNotice(reason));
  project.provide("speedgateDocker", held ? { available: true, image: held.image } : { available: false, reason: reason ?? "" });
  return async () => {
    if (held) await held.release();
    if (reason) process.stderr.write(skipNotice(reason));
  };
}
