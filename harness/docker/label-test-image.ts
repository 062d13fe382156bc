import { randomUUID } from "node:crypto";
import type Dockerode from "dockerode";
import { createTarArchive } from "../../src/docker/create-tar-archive.js";
import { dockerStatusCode } from "../../src/docker/docker-status-code.js";
import { silentLogger } from "../../src/logger.js";
import { runImageBuild } from "../../src/docker/run-image-build.js";

/**
 * The test engine image with labels added (an engine image as a CI builds it, carrying
 * org.opencontainers.image.revision) and optionally files written into it, under a tag of its own;
 * `remove` deletes it again.
 */
export async function labelTestImage(
  docker: Dockerode,
  image: string,
  labels: Record<string, string>,
  /** Files to write into the image (absolute paths), such as the engine's source checkout at the image's commit. */
  files: Record<string, string> = {},
): Promise<{ image: string; remove: () => Promise<void> }> {
  const tag = `speedgate-test-engine-labelled:${randomUUID().slice(0, 12)}`;
  // One COPY of a tree: every layer is a full copy of the image on a vfs daemon.
  const copies = Object.keys(files).length > 0 ? ["COPY files/ /"] : [];
  const lines = [
    `FROM ${image}`,
    ...copies,
    `LABEL ${Object.entries(labels)
      .map(([key, value]) => `${JSON.stringify(key)}=${JSON.stringify(value)}`)
      .join(" ")}`,
  ];
  const entries = Object.entries(files).map(([path, content]) => ({ name: `files${path}`, content: Buffer.from(content) }));
  const outcome = await runImageBuild(docker, {
    context: { archive: createTarArchive([{ name: "Dockerfile", content: Buffer.from(`${lines.join("\n")}\n`) }, ...entries]) },
    dockerfile: "Dockerfile",
    buildArgs: {},
    labels: {},
    tag,
    limits: {},
    timeoutS: 120,
    signal: new AbortController().signal,
    logger: silentLogger,
    label: "labelled test image",
  });
  if (outcome.status !== "built") throw new Error(`could not label the test image: ${JSON.stringify(outcome).slice(0, 500)}`);
  return {
    image: tag,
    remove: async () => {
      try {
        await docker.getImage(tag).remove({ force: true });
      } catch (error) {
        if (dockerStatusCode(error) !== 404) throw error;
      }
    },
  };
}
