import { isAbsolute, join, relative } from "node:path";
import type { RoundConfig } from "../config/round-config-schema.js";
import { resolveRoundEngines } from "../config/resolve-round-engines.js";
import type { EngineRole } from "../vocabulary/engine-failure.js";

/** A folder inside `root` as a relative path, or null when it is outside. */
function inside(root: string, folder: string): string | null {
  const path = relative(root, folder);
  return path.startsWith("..") || isAbsolute(path) ? null : path;
}

/**
 * Where a process engine runs: its folder as resolveRoundEngines reads the config (baseline.cwd, else
 * candidate.sourceDir, else the config's folder; the candidate's defaults to the baseline's), except
 * that a patched candidate runs in its copy of candidate.sourceDir, at the same place relative to it.
 * SGLang run from `python/` imports the package beside it, so the candidate must run from the copy's
 * `python/`, or it imports nothing patched (or nothing at all).
 */
export function processEngineCwd(role: EngineRole, config: RoundConfig, configPath: string, patchedCopy: string | null): string {
  const wanted = resolveRoundEngines(config, configPath)[role].cwd;
  if (wanted === null)
    throw new Error("runtime process: the engine has no folder; expected one from resolveRoundEngines outside base/head mode");
  const sourceDir = config.candidate.sourceDir;
  if (role === "baseline" || !patchedCopy || !sourceDir) return wanted;
  const offset = inside(sourceDir, wanted);
  // Outside the source (a baseline run from elsewhere), the copy's root is the only patched place.
  return offset === null ? patchedCopy : join(patchedCopy, offset);
}
