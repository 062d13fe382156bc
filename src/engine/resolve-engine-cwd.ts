import { dirname, isAbsolute, join, relative } from "node:path";
import type { RoundConfig } from "../config/round-config-schema.js";
import type { EngineRole } from "../vocabulary/engine-failure.js";

/** A folder inside `root` as a relative path, or null when it is outside. */
function inside(root: string, folder: string): string | null {
  const path = relative(root, folder);
  return path.startsWith("..") || isAbsolute(path) ? null : path;
}

/**
 * Where a process engine runs. The baseline runs in baseline.cwd (else candidate.sourceDir, else the
 * config's folder). A patched candidate runs in its copy of candidate.sourceDir, at the same place
 * relative to it as its own folder: candidate.cwd when set, else the baseline's. SGLang run from
 * `python/` imports the package beside it, so the candidate must run from the copy's `python/`, or it
 * imports nothing patched (or nothing at all).
 */
export function processEngineCwd(role: EngineRole, config: RoundConfig, configPath: string, patchedCopy: string | null): string {
  const baselineCwd = config.baseline.cwd ?? config.candidate.sourceDir ?? dirname(configPath);
  if (role === "baseline") return baselineCwd;
  const wanted = config.candidate.cwd ?? baselineCwd;
  const sourceDir = config.candidate.sourceDir;
  if (!patchedCopy || !sourceDir) return wanted;
  const offset = inside(sourceDir, wanted);
  // Outside the source (a baseline run from elsewhere), the copy's root is the only patched place.
  return offset === null ? patchedCopy : join(patchedCopy, offset);
}

/** A container's working folder: the image's own unless the config names one; the candidate's defaults to the baseline's. */
export function containerWorkingDir(role: EngineRole, config: RoundConfig): string | undefined {
  return role === "candidate" ? (config.candidate.cwd ?? config.baseline.cwd) : config.baseline.cwd;
}
