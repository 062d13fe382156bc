import { Readable } from "node:stream";
import type Dockerode from "dockerode";
import { describe, expect, it } from "vitest";
import { createRecordingLogger } from "../../src/logger.js";
import { isVanishedCacheError, runImageBuild } from "../../src/docker/run-image-build.js";

const VANISHED =
  "failed to get digest sha256:b4c4b336b6b04cd89c15299a60d377115ab2955a3e1149b60de03ecf5bb2d186: open " +
  "/var/lib/docker/image/vfs/imagedb/content/sha256/b4c4b336b6b04cd89c15299a60d377115ab2955a3e1149b60de03ecf5bb2d186: no such file " +
  "or directory";

function stream(messages: object[]): Readable {
  return Readable.from([Buffer.from(messages.map((message) => JSON.stringify(message)).join("\r\n") + "\r\n")]);
}

/** A daemon whose builds answer the given streams in turn, and whose tag then names one image. */
function daemonAnswering(builds: object[][]): { docker: Dockerode; builds: () => number } {
  let count = 0;
  const docker = {
    buildImage: () => Promise.resolve(stream(builds[count++] ?? [])),
    getImage: () => ({ inspect: () => Promise.resolve({ Id: "sha256:built" }), remove: () => Promise.resolve() }),
    getContainer: () => ({ inspect: () => Promise.reject(new Error("gone")), remove: () => Promise.resolve() }),
    listImages: () => Promise.resolve([]),
  } as unknown as Dockerode;
  return { docker, builds: () => count };
}

const request = () => ({
  context: { archive: Buffer.alloc(0) },
  dockerfile: "Dockerfile",
  buildArgs: {},
  labels: {},
  tag: "speedgate-candidate:r1",
  limits: {},
  timeoutS: 60,
  signal: new AbortController().signal,
  logger: createRecordingLogger(),
  label: "candidate overlay",
});

/*
 * Two rounds on one daemon share the overlay's cached steps; the sweep after one round removed its
 * candidate image with the untagged step images under it while the other round's build was using one
 * as cache ("Using cache"), and that round ended in a build_error card that blamed the patch.
 */
describe("runImageBuild when a cached step vanishes under it", () => {
  it("builds once more, and the second build's image is the result", async () => {
    const { docker, builds } = daemonAnswering([
      [
        { stream: "Step 2/4 : COPY candidate.patch apply-patch.sh /speedgate/\n" },
        { stream: " ---> Using cache\n" },
        { errorDetail: { message: VANISHED }, error: VANISHED },
      ],
      [
        { stream: "Step 2/4 : COPY candidate.patch apply-patch.sh /speedgate/\n" },
        { stream: " ---> 0123456789ab\n" },
        { stream: "Successfully built 0123456789ab\n" },
      ],
    ]);
    const outcome = await runImageBuild(docker, request());
    expect(outcome).toMatchObject({ status: "built", imageId: "sha256:built" });
    expect(builds()).toBe(2);
  });

  it("builds once more when the daemon refuses the build request itself because a step's image went (HTTP 404)", async () => {
    // Seen in CI: "(HTTP code 404) no such image - no such image: sha256:…" thrown by the build request, not written in its stream.
    const { docker, builds } = daemonAnswering([[{ stream: "Successfully built 0123456789ab\n" }]]);
    const answer = docker.buildImage.bind(docker);
    let refused = false;
    docker.buildImage = ((...args: Parameters<Dockerode["buildImage"]>) => {
      if (refused) return answer(...args);
      refused = true;
      return Promise.reject(
        new Error("(HTTP code 404) no such image - no such image: sha256:2ea69c9fc85c: No such image: sha256:2ea69c9fc85c"),
      );
    }) as Dockerode["buildImage"];
    expect(await runImageBuild(docker, request())).toMatchObject({ status: "built", imageId: "sha256:built" });
    expect(builds()).toBe(1);
    expect(refused).toBe(true);
  });

  it("does not build again after a failure of the build itself", async () => {
    const { docker, builds } = daemonAnswering([
      [
        {
          errorDetail: { message: "The command '/bin/sh -c make' returned a non-zero code: 2" },
          error: "The command '/bin/sh -c make' returned a non-zero code: 2",
        },
      ],
    ]);
    expect(await runImageBuild(docker, request())).toMatchObject({ status: "failed" });
    expect(builds()).toBe(1);
  });

  it("tells the daemon's vanished-cache errors from others", () => {
    expect(isVanishedCacheError(VANISHED)).toBe(true);
    expect(isVanishedCacheError("No such image: sha256:0123456789ab")).toBe(true);
    expect(isVanishedCacheError("failed to get digest of the file: permission denied")).toBe(false);
    expect(isVanishedCacheError("COPY failed: file not found in build context")).toBe(false);
  });
});
