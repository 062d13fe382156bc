import { posix } from "node:path";
import type Dockerode from "dockerode";
import type { RevisionSource } from "../config/source-settings-schema.js";
import { EngineFailureError } from "../vocabulary/engine-failure.js";
import { imageBaseMismatch } from "../failure/image-base-mismatch.js";
import { resolveCommit } from "../git/resolve-commit.js";
import { readImageFile } from "./read-image-file.js";

export interface ImageRevision {
  /** The full SHA, as the repository knows it. */
  commit: string;
  /** Where it was read, for the card: `label org.opencontainers.image.revision`. */
  from: string;
}

export interface ReadRevisionRequest {
  imageId: string;
  /** The image as the config names it, for messages. */
  image: string;
  source: RevisionSource;
  repoDir: string;
  base: string;
  labels: Record<string, string>;
  signal: AbortSignal;
}

/** A HEAD file is small; anything this large is not one. */
const MAX_REVISION_FILE_BYTES = 1024 * 1024;

function describeSource(source: RevisionSource): string {
  if ("label" in source) return `label ${source.label}`;
  if ("file" in source) return `file ${source.file}${source.pattern ? ` (pattern ${source.pattern})` : ""}`;
  return "source.revision.commit in the round config";
}

/** A git HEAD file names a ref (`ref: refs/heads/main`): its commit is in the loose ref or in packed-refs. */
async function followGitRef(docker: Dockerode, request: ReadRevisionRequest, headPath: string, ref: string): Promise<string> {
  const gitDir = posix.dirname(headPath);
  const read = async (path: string): Promise<string | null> => {
    try {
      return (
        await readImageFile(docker, {
          imageId: request.imageId,
          path,
          labels: request.labels,
          maxBytes: MAX_REVISION_FILE_BYTES,
          what: `source.revision: ${path}`,
        })
      ).toString("utf8");
    } catch {
      return null;
    }
  };
  const loose = await read(posix.join(gitDir, ref));
  if (loose?.trim()) return loose.trim();
  const packed = await read(posix.join(gitDir, "packed-refs"));
  const line = packed?.split("\n").find((entry) => entry.endsWith(` ${ref}`));
  if (line) return line.split(" ")[0] ?? "";
  throw new Error(`${headPath} names ${ref}, which is neither in ${gitDir}/${ref} nor in ${gitDir}/packed-refs`);
}

async function readWritten(docker: Dockerode, request: ReadRevisionRequest): Promise<string> {
  const { source } = request;
  if ("commit" in source) return source.commit;
  if ("label" in source) {
    const info = await docker.getImage(request.imageId).inspect();
    const value = info.Config.Labels?.[source.label];
    if (!value) throw new Error(`the image has no label ${source.label} (set source.revision to where the image's commit is written)`);
    return value.trim();
  }
  const text = (
    await readImageFile(docker, {
      imageId: request.imageId,
      path: source.file,
      labels: request.labels,
      maxBytes: MAX_REVISION_FILE_BYTES,
      what: `source.revision: ${source.file}`,
    })
  ).toString("utf8");
  if (source.pattern) {
    const match = new RegExp(source.pattern, "m").exec(text);
    if (!match?.[1]) throw new Error(`${source.file} in the image has nothing matching ${source.pattern} (its first group is the commit)`);
    return match[1];
  }
  const head = text.trim();
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  return ref ? await followGitRef(docker, request, source.file, ref) : head;
}

/**
 * The commit of the image's source checkout (C_img), as source.revision says to read it, resolved
 * to a full SHA in the repository the round scores. Any way of not knowing it is the image's
 * problem: an image_base_mismatch failure naming the image and the base, before any engine starts.
 */
export async function readImageRevision(docker: Dockerode, request: ReadRevisionRequest): Promise<ImageRevision> {
  const from = describeSource(request.source);
  const fail = (reason: string, revision: string | null = null): EngineFailureError =>
    new EngineFailureError(imageBaseMismatch({ image: request.image, imageRevision: revision, base: request.base, reason }));
  let written: string;
  try {
    written = await readWritten(docker, request);
  } catch (error) {
    throw fail(`its commit could not be read from ${from}: ${(error as Error).message}`);
  }
  if (!/^[0-9a-f]{7,40}$/i.test(written)) throw fail(`${from} says ${JSON.stringify(written.slice(0, 80))}, which is not a commit SHA`);
  const commit = await resolveCommit(request.repoDir, written.toLowerCase(), request.signal);
  if (!commit) {
    throw fail(
      `the image's commit ${written} (from ${from}) is not in the repository at ${request.repoDir}, so nothing can say how it leads ` +
        `to the base (fetch the full history: actions/checkout with fetch-depth: 0, or git fetch origin ${written})`,
      /^[0-9a-f]{40}$/i.test(written) ? written.toLowerCase() : null,
    );
  }
  return { commit, from };
}
