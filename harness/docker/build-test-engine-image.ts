import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type Dockerode from "dockerode";
import { build } from "esbuild";
import { NODE_BUNDLE_BANNER } from "../node-bundle-banner.js";
import { TEST_TOKENIZER_PATH } from "../fixtures/tokenizer/generate-tokenizer.js";
import { BUSYBOX, TEST_IMAGE_LABEL, copyLibraries, importRootfsImage, installBusybox, sharedLibraries } from "./import-rootfs-image.js";

export { TEST_IMAGE_LABEL };

export const TEST_IMAGE_REPOSITORY = "speedgate-test-engine";
/** Where the reference engine's "source tree" lives in the test image: the file a patch changes. */
export const ENGINE_SOURCE_DIR = "/opt/engine";
export const CUDA_OOM_LOG = `${ENGINE_SOURCE_DIR}/cuda-oom.log`;
/** A model folder in the test image; its tokenizer.json links to the test tokenizer fixture. */
export const TEST_MODEL_DIR = "/models/sim";

/** Why the image cannot be built here, said so that the reader knows what to install. */
export class MissingBusyboxError extends Error {
  constructor(readonly path: string) {
    super(
      `${path} is missing: the Docker tests' engine image is built from a static busybox. Install it with \`sudo apt-get install ` +
        `busybox-static\` (Debian and Ubuntu; .ci/run does this), then run npm test again`,
    );
    this.name = "MissingBusyboxError";
  }
}
/** The applets the engine commands and the patch step use; no git, so the overlay uses `patch -p1`. */
const APPLETS = [
  "sh",
  "patch",
  "ip",
  "cat",
  "ls",
  "sleep",
  "kill",
  "rm",
  "mkdir",
  "find",
  "sed",
  "grep",
  "echo",
  "env",
  "ps",
  "true",
  "false",
];

/** The test rounds' prompts: p1, p2… ("prompt number 1"…). */
export function testPrompt(index: number): { id: string; prompt: string } {
  return { id: `p${index + 1}`, prompt: `prompt number ${index + 1}` };
}

/** How many of them the image's engine can tell apart (by content) for per-prompt faults. */
const IMAGE_PROMPTS = 500;

/**
 * A slow baseline: each test round patches it to be faster. Requests do not name their prompt: the
 * engine finds p3 of a `--http-500 p3` fault by its content, through the prompts file in the image.
 * 48 ms a token, answers of about 600 ms: a round's requests are in flight together, so a stall of the
 * test process lengthens every one of them, and at 24 ms (about 320 ms against the patched 80 ms) a
 * stall of 240 ms would have taken a faster candidate's interval under the 1x bar; now it takes 520 ms.
 */
export const BASELINE_PROFILE = {
  model: "sim-model",
  defaults: { ttftMs: 30, itlMs: 48, outputTokens: 12, reasoningTokens: 0, tokensPerChunk: 1 },
  promptsFile: "prompts.jsonl",
};

export const CUDA_OOM_TRACEBACK = `[2026-01-01 00:00:00] Capture cuda graph begin. This can take up to several minutes.
Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 380, in capture
    self.capture_one_batch_size(bs, forward)
  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 512, in capture_one_batch_size
    out = run_once()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.06 GiB is free.
`;

const repoRoot = resolve(import.meta.dirname, "..", "..");

async function bundleCli(): Promise<Buffer> {
  const result = await build({
    entryPoints: [join(repoRoot, "src", "cli", "index.ts")],
    bundle: true,
    write: false,
    platform: "node",
    target: "node20",
    format: "esm",
    legalComments: "none",
    external: ["cpu-features", "*.node"],
    banner: { js: NODE_BUNDLE_BANNER },
    logLevel: "warning",
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error("esbuild produced no bundle");
  return Buffer.from(file.contents);
}

/** The shared libraries node needs, as ldd names them (absolute paths on this machine). */
function nodeLibraries(): Promise<string[]> {
  return sharedLibraries(process.execPath);
}

async function fingerprint(bundle: Buffer, libraries: string[]): Promise<string> {
  const hash = createHash("sha256").update(bundle).update(JSON.stringify(BASELINE_PROFILE)).update(CUDA_OOM_TRACEBACK);
  hash
    .update(JSON.stringify(testPrompt(0)))
    .update(String(IMAGE_PROMPTS))
    .update(await readFile(TEST_TOKENIZER_PATH));
  for (const path of [process.execPath, BUSYBOX, ...libraries]) {
    const info = await stat(path);
    hash.update(`${path}:${info.size}:${info.mtimeMs}`);
  }
  hash.update(APPLETS.join(","));
  return hash.digest("hex").slice(0, 16);
}

async function assembleRootfs(root: string, bundle: Buffer, libraries: string[]): Promise<void> {
  for (const dir of ["tmp", "proc", "sys", "dev", "etc", "usr/local/bin", "opt/speedgate", ENGINE_SOURCE_DIR.slice(1)]) {
    await mkdir(join(root, dir), { recursive: true });
  }
  await installBusybox(root, APPLETS);
  await copyFile(process.execPath, join(root, "usr", "local", "bin", "node"));
  await copyLibraries(root, libraries);
  await writeFile(join(root, "opt", "speedgate", "cli.mjs"), bundle);
  await writeFile(join(root, ENGINE_SOURCE_DIR.slice(1), "profile.json"), `${JSON.stringify(BASELINE_PROFILE, null, 2)}\n`);
  const prompts = Array.from({ length: IMAGE_PROMPTS }, (_, index) => JSON.stringify(testPrompt(index)));
  await writeFile(join(root, ENGINE_SOURCE_DIR.slice(1), "prompts.jsonl"), `${prompts.join("\n")}\n`);
  // A model folder as Hugging Face caches it: the tokenizer a round reads from the image is a symlink to a blob.
  const model = join(root, TEST_MODEL_DIR.slice(1));
  await mkdir(join(model, "blobs"), { recursive: true });
  await copyFile(TEST_TOKENIZER_PATH, join(model, "blobs", "tokenizer-blob"));
  await symlink("blobs/tokenizer-blob", join(model, "tokenizer.json"));
  await writeFile(join(root, CUDA_OOM_LOG.slice(1)), CUDA_OOM_TRACEBACK);
  await writeFile(join(root, "etc", "passwd"), "root:x:0:0:root:/root:/bin/sh\n");
}

/**
 * A small engine image made without a registry: busybox, this machine's node binary and the
 * libraries it loads, the speedgate CLI bundle, and a reference-engine "source tree" (a profile
 * file). Tagged by a hash of its content, so it is built once and reused until the sources change.
 */
export async function buildTestEngineImage(docker: Dockerode): Promise<string> {
  if (!existsSync(BUSYBOX)) throw new MissingBusyboxError(BUSYBOX);
  const bundle = await bundleCli();
  const libraries = await nodeLibraries();
  const tag = `${TEST_IMAGE_REPOSITORY}:${await fingerprint(bundle, libraries)}`;
  return await importRootfsImage(docker, {
    tag,
    kind: "engine",
    assemble: (root) => assembleRootfs(root, bundle, libraries),
    changes: [
      "ENV PATH=/usr/local/bin:/bin",
      `CMD ["node", "/opt/speedgate/cli.mjs", "sim-engine", "--port", "30000", "--profile", "${ENGINE_SOURCE_DIR}/profile.json"]`,
    ],
  });
}
