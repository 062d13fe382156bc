import { accessSync, constants, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** llama.cpp's server and the tiny model the real-engine tests run. */
export interface LlamaCppFiles {
  dir: string;
  /** The llama-server binary. */
  server: string;
  /** tiny-words.gguf: 4 layers, random weights, Qwen3's vocabulary. */
  model: string;
}

const REPO_ROOT = resolve(import.meta.dirname, "..", "..");
/** Where CI puts them: a checkout of speedgate beside `shared/`, so `../shared/engines/llama-cpp` from the repository. */
const SHARED = join("shared", "engines", "llama-cpp");

/**
 * The folders that could hold it, nearest first: SPEEDGATE_LLAMA_CPP_DIR, else `shared/engines/llama-cpp` beside the repository or any
 * folder above it (a worktree sits deeper than a checkout).
 */
function candidates(env: NodeJS.ProcessEnv): string[] {
  if (env.SPEEDGATE_LLAMA_CPP_DIR) return [resolve(env.SPEEDGATE_LLAMA_CPP_DIR)];
  const found: string[] = [];
  for (let dir = REPO_ROOT; ; dir = dirname(dir)) {
    found.push(join(dir, SHARED));
    if (dirname(dir) === dir) return found;
  }
}

/**
 * Finds llama-server and tiny-words.gguf, or says why not in words that name the fix
 * (scripts/build-llama-server.sh builds the server, docs/engines.md says how to make the model).
 */
export function locateLlamaCpp(env: NodeJS.ProcessEnv = process.env): LlamaCppFiles | { missing: string } {
  const looked = candidates(env);
  for (const dir of looked) {
    const server = join(dir, "llama-server");
    const model = join(dir, "tiny-words.gguf");
    if (!existsSync(server) && !existsSync(model)) continue;
    try {
      accessSync(server, constants.X_OK);
    } catch {
      return { missing: `${server} is missing or not executable` };
    }
    if (!existsSync(model)) return { missing: `${model} is missing` };
    return { dir, server, model };
  }
  const where = env.SPEEDGATE_LLAMA_CPP_DIR
    ? `SPEEDGATE_LLAMA_CPP_DIR=${env.SPEEDGATE_LLAMA_CPP_DIR}`
    : `../${SHARED} (looked in ${looked.length} folders from ${REPO_ROOT} up)`;
  return { missing: `no llama-server and tiny-words.gguf in ${where}` };
}
