import { posix } from "node:path";
import type Dockerode from "dockerode";
import { ConfigError } from "../vocabulary/config-error.js";
import { dockerStatusCode } from "./docker-status-code.js";
import { readFirstTarEntry } from "./read-tar-entry.js";

const MAX_LINK_HOPS = 8;

async function readCapped(stream: NodeJS.ReadableStream, maxBytes: number, what: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of stream as AsyncIterable<Buffer | string>) {
    const bytes = typeof part === "string" ? Buffer.from(part) : part;
    size += bytes.length;
    if (size > maxBytes) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new ConfigError(`${what}: expected at most ${Math.round(maxBytes / 2 ** 20)} MiB, the file is larger`);
    }
    parts.push(bytes);
  }
  return Buffer.concat(parts);
}

export interface ReadImageFileOptions {
  imageId: string;
  path: string;
  labels: Record<string, string>;
  maxBytes: number;
  /** Starts each message, such as "bench.tokenizer: /models/m/tokenizer.json". */
  what: string;
}

/**
 * One file from an image, read without running anything in it: a container is created (never
 * started, no network) and the file is taken from its filesystem through the archive endpoint,
 * following symlinks (Hugging Face caches link snapshot files to blobs). The container is removed
 * in every case; it carries the run's labels so a sweep finds it if this process dies first.
 */
export async function readImageFile(docker: Dockerode, options: ReadImageFileOptions): Promise<Buffer> {
  const { what } = options;
  let container: Dockerode.Container;
  try {
    container = await docker.createContainer({
      Image: options.imageId,
      // Never started: the entrypoint only has to be present in the create request, not in the image.
      Entrypoint: ["/speedgate-reads-a-file-and-never-starts-this"],
      Cmd: [],
      Labels: options.labels,
      NetworkDisabled: true,
      HostConfig: { NetworkMode: "none", AutoRemove: false },
    });
  } catch (error) {
    throw new Error(`${what}: could not create a container of ${options.imageId} to read the file from: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    let path = options.path;
    for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
      let stream: NodeJS.ReadableStream;
      try {
        stream = await container.getArchive({ path });
      } catch (error) {
        if (dockerStatusCode(error) === 404) {
          const via = path === options.path ? "" : ` (the link ${options.path} points there)`;
          throw new ConfigError(`${what}: ${path} is not in the baseline image ${options.imageId.slice(0, 19)}${via}`);
        }
        throw error;
      }
      // The tar adds a header and padding around the file.
      const entry = readFirstTarEntry(await readCapped(stream, options.maxBytes + 64 * 1024, what));
      if (entry.kind === "file") return entry.content;
      if (entry.kind === "symlink") {
        path = posix.resolve(posix.dirname(path), entry.linkName);
        continue;
      }
      throw new ConfigError(`${what}: ${path} in the baseline image is a ${entry.kind}, not a file`);
    }
    throw new ConfigError(`${what}: more than ${MAX_LINK_HOPS} symlinks from ${options.path} in the baseline image`);
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}
