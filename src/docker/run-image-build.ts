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
  /** The network of the build's RUN steps; the daemon's default when not given. */
  networkMode?: "none" | "default" | "host";
  /** Memory, shared memory, CPU and ulimits of the build's RUN steps, as the build API's parameters. */
  limits: Record<string, number | string>;
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

/** How long the daemon gets to finish (commit or kill) a cut-off build step before its container is removed. */
const STEP_CONTAINER_WAIT_MS = 3_000;

async function waitUntilGone(container: Dockerode.Container, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    try {
      await container.inspect();
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/**
 * After a build that did not finish, the images its steps made are cache nobody will use (the
 * patch failed or the build was cut short) and, on a vfs daemon, a full copy each. Only images this
 * build made are removed, never cache hits, which other builds may be using at this very moment. A
 * cut-off step may go on and commit after the request ended: wait briefly for the daemon to be done
 * with its container (a cancelled run has only seconds, so then remove it), and find an image it
 * committed by the container it was committed from.
 */
async function removeBuildLeftovers(docker: Dockerode, result: BuildStreamResult, logger: Logger): Promise<void> {
  const created = [...result.createdImages];
  if (result.stepContainer) {
    const container = docker.getContainer(result.stepContainer);
    if (!(await waitUntilGone(container, STEP_CONTAINER_WAIT_MS))) await container.remove({ force: true }).catch(() => undefined);
    if (result.lastStepImage) {
      const parent = result.lastStepImage;
      const children = (await docker.listImages({ all: true })).filter((image) =>
        image.ParentId.replace(/^sha256:/, "").startsWith(parent),
      );
      for (const child of children) {
        const details = (await docker.getImage(child.Id).inspect()) as { Container?: string };
        if (details.Container?.startsWith(result.stepContainer)) created.push(child.Id);
      }
    }
  }
  for (const id of [...new Set(created)].reverse()) {
    try {
      await docker.getImage(id).remove({ noprune: true });
    } catch (error) {
      logger.debug(`docker: kept build step image ${id}: ${(error as Error).message}`);
    }
  }
}

/**
 * A cached step's image was removed while this build was using it: another round on the same daemon
 * removed an image built on the same cache (speedgate's sweep removes a run's candidate image with the
 * untagged step images under it). Not the patch's fault, and a second build makes the step again.
 */
export function isVanishedCacheError(error: string): boolean {
  return /failed to get digest sha256:\w+: open \S+: no such file or directory|No such image: sha256:/i.test(error);
}

/** Builds, once more when a cached step vanished under the first attempt (see isVanishedCacheError). */
export async function runImageBuild(docker: Dockerode, request: ImageBuildRequest): Promise<ImageBuildOutcome> {
  let vanished: string;
  try {
    const first = await runImageBuildOnce(docker, request);
    if (first.status !== "failed" || first.stream.error === null || !isVanishedCacheError(first.stream.error)) return first;
    vanished = first.stream.error;
  } catch (error) {
    // The daemon may refuse the build request itself (HTTP 404) when the image a cached step stands on went between its
    // lookup and the build: the same cause as an error in the build's stream, and the same remedy.
    const message = (error as Error).message;
    if (!isVanishedCacheError(message)) throw error;
    vanished = message;
  }
  request.logger.info(`docker: ${request.label}: a cached build step was removed by another build meanwhile (${vanished}); building again`);
  return await runImageBuildOnce(docker, request);
}

async function runImageBuildOnce(docker: Dockerode, request: ImageBuildRequest): Promise<ImageBuildOutcome> {
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
      ...request.limits,
      ...(request.networkMode ? { networkmode: request.networkMode } : {}),
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
