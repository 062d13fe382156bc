import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createTarArchive } from "../../src/docker/create-tar-archive.js";
import { holdImage } from "../../harness/docker/acquire-test-engine-image.js";
import { TEST_IMAGE_LABEL } from "../../harness/docker/build-test-engine-image.js";
import { dockerTestContext } from "../support/docker/docker-test-context.js";
import { runFixture } from "./run-fixture.js";

const context = dockerTestContext();

/*
 * `npm test` and `npm run bench` used to leave their 111 MB engine image on the daemon. Each run now
 * holds the image while it runs and the last one to let go removes it, without pulling it from under
 * a run that still uses it.
 */
describe.skipIf(!context)("the test engine image's lifetime (real daemon)", () => {
  const { docker, image } = context ?? { docker: null, image: "" };

  it("stays while anyone holds it and is removed when the last holder lets go", async () => {
    if (!docker) return;
    const tag = `speedgate-test-hold:${randomUUID().slice(0, 8)}`;
    const [repo, version] = tag.split(":");
    const stream = await docker.importImage(Readable.from(createTarArchive([{ name: "marker", content: Buffer.from("held\n") }])), {
      repo,
      tag: version,
      changes: [`LABEL ${TEST_IMAGE_LABEL}=hold-test`],
    });
    await new Promise((resolve, reject) => docker.modem.followProgress(stream, (error) => (error ? reject(error) : resolve(null))));
    try {
      const first = await holdImage(docker, tag);
      const second = await holdImage(docker, tag);
      await first();
      await expect(docker.getImage(tag).inspect()).resolves.toBeTruthy();
      await second();
      await expect(docker.getImage(tag).inspect()).rejects.toMatchObject({ statusCode: 404 });
      const holders = await docker.listContainers({ all: true, filters: { ancestor: [tag] } });
      expect(holders).toEqual([]);
    } finally {
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
    }
  });

  it("is left to this run when a second test run on the same sources ends first", async () => {
    if (!docker) return;
    const { code, output } = await runFixture("needs-docker", { SPEEDGATE_REQUIRE_DOCKER: "1" });
    expect(code, output).toBe(0);
    expect(output).toMatch(/1 passed/);
    await expect(docker.getImage(image).inspect()).resolves.toBeTruthy();
  }, 180_000);
});
