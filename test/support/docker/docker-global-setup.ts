import Dockerode from "dockerode";
import type { TestProject } from "vitest/node";
import { buildTestEngineImage } from "./build-test-engine-image.js";

/**
 * Builds the test engine image once per test run when a Docker daemon answers. Without one the
 * Docker tests skip with a notice, unless SPEEDGATE_REQUIRE_DOCKER=1 (CI), where that is an error.
 */
export default async function setup(project: TestProject): Promise<void> {
  const docker = new Dockerode();
  try {
    await docker.ping();
  } catch (error) {
    const reason = `no Docker daemon answers (${(error as Error).message})`;
    if (process.env.SPEEDGATE_REQUIRE_DOCKER === "1") throw new Error(`SPEEDGATE_REQUIRE_DOCKER=1 but ${reason}`);
    process.stderr.write(`speedgate: skipping the Docker tests: ${reason}; set SPEEDGATE_REQUIRE_DOCKER=1 to make this an error\n`);
    project.provide("speedgateDocker", { available: false, reason });
    return;
  }
  let image: string;
  try {
    image = await buildTestEngineImage(docker);
  } catch (error) {
    // Typically /bin/busybox is missing (apt-get install busybox-static).
    const reason = `the test engine image could not be built (${(error as Error).message})`;
    if (process.env.SPEEDGATE_REQUIRE_DOCKER === "1") throw new Error(`SPEEDGATE_REQUIRE_DOCKER=1 but ${reason}`, { cause: error });
    process.stderr.write(`speedgate: skipping the Docker tests: ${reason}\n`);
    project.provide("speedgateDocker", { available: false, reason });
    return;
  }
  project.provide("speedgateDocker", { available: true, image });
}
