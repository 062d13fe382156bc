import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { parseRoundConfig } from "../src/config/load-round-config.js";
import { findFreePort } from "../src/engine/find-free-port.js";
import { silentLogger } from "../src/logger.js";
import { runRound } from "../src/round/run-round.js";
import { locateLlamaCpp } from "../harness/llama-cpp/locate-llama-cpp.js";
import { llamaCppPrompts, llamaServerCommand } from "../harness/llama-cpp/make-llama-cpp-round.js";

const run = promisify(execFile);

/*
 * Figure 13: a real one-line patch to llama.cpp's server source, rebuilt incrementally and scored. It
 * needs a built llama.cpp tree (scripts/build-llama-server.sh with LLAMA_CPP_WORK keeps one; point
 * SPEEDGATE_LLAMA_CPP_TREE at its llama.cpp folder), which takes 25-45 minutes on 2 cores the first
 * time: the test suite cannot afford it, so it runs here, and says "not measured" without the tree.
 *
 * The patch is applied in place and the same build tree rebuilt, as examples/rounds/llama-cpp.yaml's
 * overlay does inside the baseline image: a copy of the tree would carry a CMake build folder that
 * still points at the unpatched source. The patch changes one line of tools/server/server-schema.cpp
 * (a description string), so the round is an A/A between two builds: what is measured is the rebuild
 * (one file recompiled, the server relinked) and that the rebuilt binary is scored like the original.
 */

const PATCH = fileURLToPath(new URL("./fixtures/llama-cpp-server-one-line.patch", import.meta.url));
const REPO_ROOT = resolve(import.meta.dirname, "..");

export interface SourcePatchFigure {
  /** The incremental rebuild after the patch, and the one that puts the tree back. */
  rebuildMs: number;
  restoreMs: number;
  roundScore: number | null;
  promptsScored: number;
}

function treeOf(env: NodeJS.ProcessEnv): string {
  return resolve(env.SPEEDGATE_LLAMA_CPP_TREE ?? join(REPO_ROOT, ".speedgate", "llama-cpp-work", "llama.cpp"));
}

async function rebuild(tree: string): Promise<number> {
  const started = performance.now();
  await run("cmake", ["--build", join(tree, "build"), "--target", "llama-server", "-j", String(cpus().length)], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return performance.now() - started;
}

export async function measureSourcePatch(): Promise<SourcePatchFigure> {
  const tree = treeOf(process.env);
  const server = join(tree, "build", "bin", "llama-server");
  if (!existsSync(server)) {
    throw new Error(
      `no built llama.cpp tree at ${tree} (LLAMA_CPP_WORK=DIR scripts/build-llama-server.sh keeps one; ` +
        `SPEEDGATE_LLAMA_CPP_TREE=DIR/llama.cpp names it)`,
    );
  }
  const found = locateLlamaCpp();
  if ("missing" in found) throw new Error(`no model: ${found.missing}`);
  const dir = await mkdtemp(join(tmpdir(), "speedgate-bench-patch-"));
  try {
    const baseline = join(dir, "llama-server-baseline");
    const candidate = join(dir, "llama-server-candidate");
    // Up to date first, so the timed rebuild is the patch's alone.
    await rebuild(tree);
    await copyFile(server, baseline);
    await run("git", ["-C", tree, "apply", PATCH]);
    let rebuildMs: number;
    try {
      rebuildMs = await rebuild(tree);
      await copyFile(server, candidate);
    } finally {
      await run("git", ["-C", tree, "apply", "-R", PATCH]);
    }
    const restoreMs = await rebuild(tree);
    const config = parseRoundConfig({
      engine: "llama.cpp",
      runtime: "process",
      port: await findFreePort(),
      health: { path: "/health", timeoutS: 120, intervalMs: 50 },
      baseline: { command: llamaServerCommand(baseline, found.model), cwd: dir },
      candidate: { command: llamaServerCommand(candidate, found.model) },
      bench: { prompts: "prompts.jsonl", model: "tiny", maxTokens: 32, requestIntervalMs: 250, contextLimit: 2048, tolerance: 0.9 },
      gate: { minRoundScore: 1, minPrompts: 1 },
      docker: { stopTimeoutS: 2 },
    });
    const card = await runRound({
      round: { config, configPath: join(dir, "round.yaml"), prompts: llamaCppPrompts(8), patch: null },
      logger: silentLogger,
      signal: new AbortController().signal,
    });
    if (card.failure) throw new Error(`the round failed: ${card.failure.summary}`);
    return { rebuildMs, restoreMs, roundScore: card.roundScore, promptsScored: card.promptsScored };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await measureSourcePatch(), null, 2));
}
