import { hostname } from "node:os";
import type Dockerode from "dockerode";
import { dockerStatusCode } from "../../src/docker/docker-status-code.js";
import { LABEL_CREATED, LABEL_HOST, LABEL_PID, LABEL_PID_START } from "../../src/docker/resource-labels.js";
import { readProcessStartTime } from "../../src/read-process-start-time.js";
import { DEFAULT_STALE_AFTER_MS, isRunGone } from "../../src/docker/sweep-resources.js";
import { TEST_IMAGE_LABEL, buildTestEngineImage } from "./build-test-engine-image.js";

export interface TestEngineImage {
  image: string;
  /** Lets go of the image, and removes it when no other test run or bench holds it. */
  release: () => Promise<void>;
}

const HOLDER = `${TEST_IMAGE_LABEL}=holder`;

/** Holders of test runs and benches that were killed before they released their image. */
async function removeStaleHolders(docker: Dockerode): Promise<void> {
  const holders = await docker.listContainers({ all: true, filters: { label: [HOLDER] } });
  const now = Date.now();
  for (const holder of holders.filter((info) => isRunGone(info.Labels, now, DEFAULT_STALE_AFTER_MS))) {
    await docker
      .getContainer(holder.Id)
      .remove({ force: true })
      .catch(() => undefined);
  }
}

/** The labels of a holder: whose it is, so a holder of a killed run can be told apart and removed. */
function holderLabels(): Record<string, string> {
  return {
    [TEST_IMAGE_LABEL]: "holder",
    [LABEL_PID]: String(process.pid),
    [LABEL_PID_START]: readProcessStartTime(process.pid) ?? "",
    [LABEL_HOST]: hostname(),
    [LABEL_CREATED]: new Date().toISOString(),
  };
}

async function release(docker: Dockerode, holder: Dockerode.Container, image: string): Promise<void> {
  await holder.remove({ force: true }).catch((error: unknown) => {
    if (dockerStatusCode(error) !== 404) throw error;
  });
  try {
    // Not forced: the daemon refuses (409) while another run's holder, or an image built on it, still uses it.
    await docker.getImage(image).remove();
  } catch (error) {
    const status = dockerStatusCode(error);
    if (status !== 409 && status !== 404) throw error;
  }
}

/**
 * The test engine image for one test run or bench, and the way to let go of it. Each user holds the
 * image with a container that is created and never started: the daemon will not remove an image a
 * container uses, so the last run to release it removes it and none pulls it from under another, and
 * nothing is left on the daemon once every run is over (a 111 MB image each time the sources change).
 */
/**
 * Holds an image with a container that is created and never started; the returned function lets go
 * of it and removes the image unless someone else still holds it. Rejects with the daemon's 404 when
 * the image is gone.
 */
export async function holdImage(docker: Dockerode, image: string): Promise<() => Promise<void>> {
  const holder = await docker.createContainer({ Image: image, Cmd: ["true"], Labels: holderLabels(), HostConfig: { NetworkMode: "none" } });
  return () => release(docker, holder, image);
}

/** An image built (or found) and held for this run: the reference engine's by default, or another test image's builder. */
export async function acquireTestEngineImage(
  docker: Dockerode,
  build: (docker: Dockerode) => Promise<string> = buildTestEngineImage,
): Promise<TestEngineImage> {
  await removeStaleHolders(docker);
  for (let attempt = 1; ; attempt++) {
    const image = await build(docker);
    try {
      return { image, release: await holdImage(docker, image) };
    } catch (error) {
      // Another run released and removed it between the build and the hold: build it again.
      if (dockerStatusCode(error) !== 404 || attempt === 3) throw error;
    }
  }
}
