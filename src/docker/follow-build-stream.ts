import type { Logger } from "../logger.js";
import { LogRingBuffer } from "../engine/log-ring-buffer.js";

/** What a build (or pull) said, read from the JSON progress stream of its HTTP 200 answer. */
export interface BuildStreamResult {
  /** The built image's ID from the `aux` message, when the build succeeded. */
  imageId: string | null;
  /** The `error` message: a failed build still answers 200 and says so only in the stream. */
  error: string | null;
  /** The last output lines, oldest first, for the card's log tail. */
  lines: string[];
  /** The step (1-based, "Step N/M") that was running when the stream ended, or null. */
  lastStep: number | null;
  /** Image IDs the steps after FROM produced (" ---> 0123456789ab"), in order; cache hits are not this build's. */
  createdImages: string[];
  /** The image the last finished step ended on (created or from cache), the parent of the step that was running. */
  lastStepImage: string | null;
  /** The container of the step that was running last (" ---> Running in …"), which an abort may leave behind. */
  stepContainer: string | null;
  /** Why the stream broke off before its end (an abort or a dropped connection), else null. */
  interrupted: string | null;
}

interface ProgressMessage {
  stream?: unknown;
  status?: unknown;
  progress?: unknown;
  id?: unknown;
  error?: unknown;
  errorDetail?: { message?: unknown };
  aux?: { ID?: unknown };
}

const STEP_LINE = /^Step (\d+)\/\d+ :/;
const STEP_IMAGE_LINE = /^ ---> ([0-9a-f]{12,64})\s*$/;
const STEP_CONTAINER_LINE = /^ ---> Running in ([0-9a-f]{12,64})\s*$/;

/**
 * Reads Docker's newline-delimited JSON progress stream to its end. Each output line goes to the
 * logger at debug level and into a bounded tail; the stream's error message, not the HTTP status,
 * says whether the build failed.
 */
export async function followBuildStream(
  stream: NodeJS.ReadableStream,
  logger: Logger,
  options: { tailLines?: number; label?: string } = {},
): Promise<BuildStreamResult> {
  const tail = new LogRingBuffer({ maxLines: options.tailLines ?? 60 });
  const prefix = options.label ? `${options.label}: ` : "";
  let imageId: string | null = null;
  let error: string | null = null;
  let lastStep: number | null = null;
  const createdImages: string[] = [];
  let lastStepImage: string | null = null;
  let fromCache = false;
  let interrupted: string | null = null;
  let stepContainer: string | null = null;
  const decoder = new TextDecoder("utf-8");

  const addOutput = (text: string): void => {
    for (const line of text.split(/\r?\n/)) {
      if (line.trim().length === 0) continue;
      const step = STEP_LINE.exec(line);
      if (step?.[1]) lastStep = Number(step[1]);
      const image = STEP_IMAGE_LINE.exec(line);
      if (line.trim() === "---> Using cache") fromCache = true;
      if (image?.[1] && lastStep !== null) {
        lastStepImage = image[1];
        if (lastStep > 1 && !fromCache) createdImages.push(image[1]);
        fromCache = false;
      }
      const container = STEP_CONTAINER_LINE.exec(line);
      if (container?.[1]) stepContainer = container[1];
      tail.write("build", `${line}\n`);
      logger.debug(`${prefix}${line}`);
    }
  };

  const handleLine = (line: string): void => {
    if (line.trim().length === 0) return;
    let message: ProgressMessage;
    try {
      message = JSON.parse(line) as ProgressMessage;
    } catch {
      addOutput(line);
      return;
    }
    if (typeof message.stream === "string") addOutput(message.stream);
    if (typeof message.status === "string") {
      const id = typeof message.id === "string" ? `${message.id}: ` : "";
      const progress = typeof message.progress === "string" ? ` ${message.progress}` : "";
      logger.debug(`${prefix}${id}${message.status}${progress}`);
    }
    if (typeof message.aux?.ID === "string") imageId = message.aux.ID;
    const errorText =
      typeof message.error === "string"
        ? message.error
        : typeof message.errorDetail?.message === "string"
          ? message.errorDetail.message
          : null;
    if (errorText !== null) {
      error = errorText;
      addOutput(errorText);
    }
  };

  // Each message is one JSON line; only what follows the chunk's last line end waits for the next chunk,
  // so a long message is never re-split.
  let pending: string[] = [];
  try {
    for await (const chunk of stream) {
      const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        pending.push(text.slice(start, end));
        handleLine(pending.join(""));
        pending = [];
        start = end + 1;
      }
      if (start < text.length) pending.push(text.slice(start));
    }
  } catch (streamError) {
    interrupted = streamError instanceof Error ? streamError.message : String(streamError);
  }
  handleLine(pending.join("") + decoder.decode());
  return { imageId, error, lines: tail.snapshot(), lastStep, createdImages, lastStepImage, stepContainer, interrupted };
}
