import { dirname } from "node:path";
import type { EngineRole } from "../vocabulary/engine-failure.js";
import type { RoundConfig } from "./round-config-schema.js";

/** How one engine of a round starts, as every command (run, calibrate, --check, the action) reads the config. */
export interface EngineLaunch {
  /** Its command with the placeholders still unfilled; null: the image's own CMD (Docker only). */
  command: readonly string[] | null;
  /**
   * Where it runs. A process round: a folder on this machine, before a patched candidate is mapped into
   * its copy; scoring commits, a folder relative to the worktree's root (null: the root). Docker: a
   * folder inside the image (null: the image's WORKDIR).
   */
  cwd: string | null;
  /** The config's variables: the candidate's added to the baseline's, as both runtimes pass them. */
  env: Readonly<Record<string, string>>;
}

export type RoundEngines = Readonly<Record<EngineRole, EngineLaunch>>;

/**
 * The one reading of a round's two engines. The defaults live here so that a config means the same
 * in every command: a process baseline without baseline.cwd runs in candidate.sourceDir (else the
 * config's folder), and the candidate inherits the baseline's command, folder and variables where it
 * names none. `calibrate` puts the baseline in both seats from this, not from the written fields, so a
 * default that `run` fills is filled there too.
 */
export function resolveRoundEngines(config: RoundConfig, configPath: string, options: { commits?: boolean } = {}): RoundEngines {
  const onHost = config.runtime === "process" && !options.commits;
  const baselineCwd = config.baseline.cwd ?? (onHost ? (config.candidate.sourceDir ?? dirname(configPath)) : null);
  const baseline: EngineLaunch = { command: config.baseline.command ?? null, cwd: baselineCwd, env: config.baseline.env };
  return {
    baseline,
    candidate: {
      command: config.candidate.command ?? baseline.command,
      cwd: config.candidate.cwd ?? baselineCwd,
      env: { ...config.baseline.env, ...config.candidate.env },
    },
  };
}
