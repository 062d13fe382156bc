import { resolve } from "node:path";
import type { LoadRoundOptions } from "../config/load-round-config.js";
import { UsageError } from "./command.js";

/** The flags that pick what a round scores: a pull request's --base/--head (in --repo), or a fixed baseline and a --patch. */
export interface RoundModeFlags {
  patch?: string | undefined;
  base?: string | undefined;
  head?: string | undefined;
  repo?: string | undefined;
}

/**
 * --patch (a fixed baseline and a patch) or --base/--head (a pull request's own commits): one mode or the other.
 * `run` and `calibrate` read them here alike, so a calibration is measured on the folders `run` then starts the
 * engines in (with --base, a runtime: process engine's folder is one of the repository's, not the config's).
 */
export function readRoundMode(command: string, values: RoundModeFlags, usage: string): LoadRoundOptions {
  if (values.base === undefined) {
    if (values.head !== undefined || values.repo !== undefined) {
      throw new UsageError(
        `speedgate ${command}: ${values.head !== undefined ? "--head" : "--repo"} needs --base (the commit the candidate is scored ` +
          `against)\nusage: ${usage}`,
      );
    }
    return values.patch ? { patchPath: values.patch } : {};
  }
  if (values.patch !== undefined) {
    throw new UsageError(
      `speedgate ${command}: --patch and --base score two different ways (a fixed baseline with a patch, or a pull request's base ` +
        `against its head): give one\nusage: ${usage}`,
    );
  }
  return {
    commits: { base: values.base, head: values.head ?? "HEAD", ...(values.repo !== undefined ? { repoDir: resolve(values.repo) } : {}) },
  };
}
