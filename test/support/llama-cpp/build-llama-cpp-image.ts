import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type Dockerode from "dockerode";
import { MissingBusyboxError } from "../../../harness/docker/build-test-engine-image.js";
import { BUSYBOX, copyLibraries, importRootfsImage, installBusybox, sharedLibraries } from "../../../harness/docker/import-rootfs-image.js";
import type { LlamaCppFiles } from "../../../harness/llama-cpp/locate-llama-cpp.js";

export const LLAMA_CPP_IMAGE_REPOSITORY = "speedgate-test-llama-cpp";
/** Where the image keeps the server and the model. */
export const IMAGE_SERVER = "/usr/local/bin/llama-server";
export const IMAGE_MODEL = "/models/tiny-words.gguf";

/** A shell for `ulimit` in a command, and the tools a failure test needs. */
const APPLETS = ["sh", "cat", "ls", "sleep", "true", "env", "head"];

async function fingerprint(paths: readonly string[]): Promise<string> {
  const hash = createHash("sha256").update(APPLETS.join(","));
  for (const path of paths) {
    const info = await stat(path);
    hash.update(`${path}:${info.size}:${info.mtimeMs}`);
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * llama.cpp's server in an image made without a registry: the binary, the libraries it loads (libgomp,
 * libstdc++ and libc's), the tiny model and busybox. Tagged by what goes in, so one test run imports it
 * once and later runs reuse it until the binary or the model changes.
 */
export async function buildLlamaCppImage(docker: Dockerode, files: LlamaCppFiles): Promise<string> {
  if (!existsSync(BUSYBOX)) throw new MissingBusyboxError(BUSYBOX);
  const libraries = await sharedLibraries(files.server);
  const tag = `${LLAMA_CPP_IMAGE_REPOSITORY}:${await fingerprint([files.server, files.model, BUSYBOX, ...libraries])}`;
  return await importRootfsImage(docker, {
    tag,
    kind: "llama-cpp",
    assemble: async (root) => {
      for (const dir of ["tmp", "proc", "sys", "dev", "etc", "usr/local/bin", "models"]) await mkdir(join(root, dir), { recursive: true });
      await installBusybox(root, APPLETS);
      await copyLibraries(root, libraries);
      await copyFile(files.server, join(root, IMAGE_SERVER));
      await copyFile(files.model, join(root, IMAGE_MODEL));
      await writeFile(join(root, "etc", "passwd"), "root:x:0:0:root:/root:/bin/sh\n");
    },
    changes: ["ENV PATH=/usr/local/bin:/bin", `CMD ["${IMAGE_SERVER}", "--help"]`],
  });
}
