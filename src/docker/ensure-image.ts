import type Dockerode from "dockerode";
import type { Logger } from "../logger.js";
import { EngineFailureError } from "../vocabulary/engine-failure.js";
import { buildFailure } from "./build-failures.js";
import { followBuildStream } from "./follow-build-stream.js";
import { dockerStatusCode } from "./docker-status-code.js";

function missing(reference: string, reason: string, logTail: string[]): EngineFailureError {
  return new EngineFailureError(
    buildFailure({
      role: "baseline",
      stage: "build",
      kind: "image_missing",
      label: "the baseline image is not on this runner and could not be pulled",
      summary: `${reference}: ${reason.trim()}`,
      logTail,
    }),
  );
}

/** A multi-gigabyte engine image takes minutes to pull: say where it is this often, not every layer tick. */
const PULL_PROGRESS_EVERY_MS = 10_000;

/** Every progress line at debug, and the latest one at info now and then. */
function throttledProgress(logger: Logger, everyMs: number): Logger {
  let last = 0;
  return {
    ...logger,
    debug: (message) => {
      logger.debug(message);
      const now = performance.now();
      if (now - last >= everyMs) {
        last = now;
        logger.info(message);
      }
    },
  };
}

/**
 * The image's ID, pulling it first when the daemon does not have it (progress at debug level). A
 * pull that fails, as an HTTP error or inside the progress stream, is an `image_missing` failure.
 */
export async function ensureImage(docker: Dockerode, reference: string, logger: Logger, signal: AbortSignal): Promise<string> {
  try {
    return (await docker.getImage(reference).inspect()).Id;
  } catch (error) {
    if (dockerStatusCode(error) !== 404)
      throw new Error(`docker: could not inspect image ${reference}: ${(error as Error).message}`, { cause: error });
  }
  logger.info(`docker: ${reference} is not on this machine, pulling it`);
  let stream: NodeJS.ReadableStream;
  try {
    stream = await docker.pull(reference, { abortSignal: signal });
  } catch (error) {
    throw missing(reference, (error as Error).message, []);
  }
  const result = await followBuildStream(stream, throttledProgress(logger, PULL_PROGRESS_EVERY_MS), { label: `pull ${reference}` });
  if (result.error !== null) throw missing(reference, result.error, result.lines);
  try {
    return (await docker.getImage(reference).inspect()).Id;
  } catch (error) {
    throw missing(reference, `pulled, but the daemon does not find it: ${(error as Error).message}`, result.lines);
  }
}
