import { Readable } from "node:stream";
import type Dockerode from "dockerode";
import type { Logger } from "../logger.js";
import { type BuildStreamResult, followBuildStream } from "./follow-build-stream.js";

export interface ImageBuildRequest {
  /** A tar archive (the generated overlay context) or a folder on this machine. */
  context: { archive: Buffer } | { dir: string; entries: string[] };
  dockerfile: string;
  buildArgs: Record<string, string>;
  labels: Record<string, string>;
  tag: string;
  timeoutS: number;
  signal: AbortSignal;
  logger: Logger;
  label: string;
}

export type ImageBuildOutcome =
  | { status: "built"; imageId: string; stream: BuildStreamResult }
  | { status: "failed"; stream: BuildStreamResult }
  | { status: "timed_out"; lines: string[] }
  | { status: "cancelled" };

async function waitUntilGone(container: Dockerode.Container, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await container.inspect();
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/**
 * After a build that did not finish, the images its steps left are cache nobody will use (the
 * patch failed or the build was cut short) and, on a vfs daemon, a full copy each. A cut-off
 * build's running step still finishes and commits after the request ended, so wait for its
 * container first, then remove the untagged images that descend from this build's steps, leaves
 * first. Images another image or container still uses refuse removal, as they should.
 */
async function removeBuildLeftovers(docker: Dockerode, result: BuildStreamResult, logger: Logger): Promise<void> {
  if (result.stepContainer) {
    const container = docker.getContainer(result.stepContainer);
    if (!(await waitUntilGone(container, 10_000))) await container.remove({ force: true }).catch(() => undefined);
  }
  if (result.stepImages.length === 0) return;
  const images = await docker.listImages({ all: true });
  const shortId = (id: string): string => id.replace(/^sha256:/, "").slice(0, 12);
  const ours = new Set(result.stepImages.map((id) => id.slice(0, 12)));
  const order: string[] = [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const image of images) {
      const id = shortId(image.Id);
      const untagged = !image.RepoTags || image.RepoTags.every((tag) => tag === "<none>:<none>");
      if (!ours.has(id) && untagged && ours.has(shortId(image.ParentId))) {
        ours.add(id);
        order.push(id);
        grew = true;
      }
    }
  }
  for (const id of [...result.stepImages.map((step) => step.slice(0, 12)), ...order].reverse()) {
    try {
      await docker.getImage(id).remove({ noprune: false });
    } catch (error) {
      logger.debug(`docker: kept build step image ${id}: ${(error as Error).message}`);
    }
  }
}

export async function runImageBuild(docker: Dockerode, request: ImageBuildRequest): Promise<ImageBuildOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`build exceeded ${request.timeoutS} s`));
  }, request.timeoutS * 1000);
  const onCancel = (): void => controller.abort(request.signal.reason);
  request.signal.addEventListener("abort", onCancel, { once: true });
  try {
    if (request.signal.aborted) return { status: "cancelled" };
    const file: NodeJS.ReadableStream | Dockerode.ImageBuildContext =
      "archive" in request.context
        ? Readable.from([request.context.archive])
        : { context: request.context.dir, src: request.context.entries };
    const stream = await docker.buildImage(file, {
      t: request.tag,
      dockerfile: request.dockerfile,
      buildargs: request.buildArgs,
      labels: request.labels,
      rm: true,
      forcerm: true,
      abortSignal: controller.signal,
    });
    const result = await followBuildStream(stream, request.logger, { label: request.label, tailLines: 200 });
    if (timedOut || request.signal.aborted || result.error !== null || result.interrupted !== null) {
      await removeBuildLeftovers(docker, result, request.logger);
    }
    if (timedOut) return { status: "timed_out", lines: result.lines };
    if (request.signal.aborted) return { status: "cancelled" };
    if (result.error !== null) return { status: "failed", stream: result };
    if (result.interrupted !== null) throw new Error(`the build stream broke off: ${result.interrupted}`);
    const imageId = (await docker.getImage(request.tag).inspect()).Id;
    return { status: "built", imageId, stream: result };
  } catch (error) {
    if (timedOut) return { status: "timed_out", lines: [] };
    if (request.signal.aborted) return { status: "cancelled" };
    throw new Error(`${request.label}: the Docker build request failed: ${(error as Error).message}`, { cause: error });
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onCancel);
  }
}
