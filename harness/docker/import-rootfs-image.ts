import { execFile, spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import type Dockerode from "dockerode";

const run = promisify(execFile);

/** The label of every image the test runs import, with what it is ("engine": the reference engine, "llama-cpp": llama.cpp's server). */
export const TEST_IMAGE_LABEL = "speedgate.test-image";

/** Debian's busybox-static puts it here; SPEEDGATE_TEST_BUSYBOX points elsewhere (the test of the skip notice names a missing one). */
export const BUSYBOX = process.env.SPEEDGATE_TEST_BUSYBOX ?? "/bin/busybox";

/** The shared libraries a dynamically linked program loads, as ldd names them (absolute paths on this machine). */
export async function sharedLibraries(program: string): Promise<string[]> {
  const { stdout } = await run("ldd", [program]);
  return [...stdout.matchAll(/(\/\S+)\s+\(0x/g)].map((match) => match[1] ?? "").filter((path) => path.length > 0);
}

/** Copies each library to the same path under `root`, where the program's loader looks for it. */
export async function copyLibraries(root: string, libraries: readonly string[]): Promise<void> {
  for (const library of libraries) {
    await mkdir(join(root, dirname(library)), { recursive: true });
    await copyFile(library, join(root, library));
  }
}

/** busybox in /bin with a link for each applet: a shell and the few tools an image's commands use. */
export async function installBusybox(root: string, applets: readonly string[]): Promise<void> {
  await mkdir(join(root, "bin"), { recursive: true });
  await copyFile(BUSYBOX, join(root, "bin", "busybox"));
  for (const applet of applets) await symlink("busybox", join(root, "bin", applet));
}

/** An image older than this is no longer used by a test run that started before the sources changed. */
const OLD_TEST_IMAGE_S = 10 * 60;

/** Earlier builds of the same kind (older sources) are a full copy each on a vfs daemon: drop them once a new one exists. */
async function removeOlderTestImages(docker: Dockerode, keep: string, kind: string): Promise<void> {
  // all: also the untagged ones, left when two test runs imported the same sources at once.
  const images = await docker.listImages({ all: true, filters: { label: [`${TEST_IMAGE_LABEL}=${kind}`] } });
  const now = Date.now() / 1000;
  for (const image of images) {
    // Imported images have no parent; overlays built on them inherit the label but do.
    if (image.ParentId !== "" || image.RepoTags?.includes(keep) || now - image.Created < OLD_TEST_IMAGE_S) continue;
    await docker
      .getImage(image.Id)
      .remove()
      .catch(() => undefined);
  }
}

export interface RootfsImage {
  /** repository:tag, the tag a hash of what goes in, so the image is imported once until that changes. */
  tag: string;
  /** The value of TEST_IMAGE_LABEL on it. */
  kind: string;
  /** Fills the root filesystem's folder. */
  assemble: (root: string) => Promise<void>;
  /** Dockerfile instructions `docker import --change` takes (ENV, CMD, …); the label is added. */
  changes: string[];
}

/**
 * An image made without a registry: a root filesystem assembled in a temporary folder, streamed to the
 * daemon's import as a tar. Returns the tag; an image already there under it is reused as it is.
 */
export async function importRootfsImage(docker: Dockerode, image: RootfsImage): Promise<string> {
  try {
    await docker.getImage(image.tag).inspect();
    return image.tag;
  } catch {
    // Not built yet.
  }
  const [repo, tag] = image.tag.split(":");
  const root = await mkdtemp(join(tmpdir(), "speedgate-rootfs-"));
  try {
    await image.assemble(root);
    const tar = spawn("tar", ["-C", root, "-c", "."], { stdio: ["ignore", "pipe", "inherit"] });
    const stream = await docker.importImage(tar.stdout, {
      repo,
      tag,
      changes: [...image.changes, `LABEL ${TEST_IMAGE_LABEL}=${image.kind}`],
    });
    const output = await new Promise<string>((resolveOutput, reject) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => resolveOutput(Buffer.concat(chunks).toString("utf8")));
      stream.on("error", reject);
    });
    if (/"error"/.test(output)) throw new Error(`docker import failed: ${output}`);
    await docker.getImage(image.tag).inspect();
    await removeOlderTestImages(docker, image.tag, image.kind);
    return image.tag;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
