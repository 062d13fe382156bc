import { createHash } from "node:crypto";
import { isAbsolute, relative } from "node:path";
import type { Prompt } from "../prompts/prompt.js";
import type { RoundConfig } from "./round-config-schema.js";

/** Hashes that tell whether two cards (say, two shards) come from the same round inputs. */
export interface RoundFingerprint {
  configHash: string;
  promptsHash: string;
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/**
 * Paths are hashed relative to the config's folder, and the patch's path not at all (the patch hash
 * covers its bytes), so shards on runners with different workspaces agree on one round.
 */
export function fingerprintRound(config: RoundConfig, configDir: string, prompts: readonly Prompt[]): RoundFingerprint {
  const portable = (path: string | undefined): string | undefined =>
    path === undefined || !isAbsolute(path) ? path : relative(configDir, path) || ".";
  // How the client waits for bytes (bench.busyPoll) moves when a chunk is stamped by a fraction of a
  // millisecond, not what is measured: a calibration stays valid on a runner where `auto` turns it on.
  // An open loop hashes as it did before bench.concurrency existed: the same config, the same hash.
  const { busyPoll: _clientWait, concurrency, ...openLoop } = config.bench;
  // How main is watched (watch:) changes which commits are compared, never what a round measures.
  const { watch: _watch, ...measured } = config;
  const bench = concurrency === null ? openLoop : { ...openLoop, concurrency };
  const comparable: Omit<RoundConfig, "bench" | "watch"> & {
    bench: Omit<RoundConfig["bench"], "busyPoll" | "concurrency"> & { concurrency?: number };
  } = {
    ...measured,
    baseline: {
      ...config.baseline,
      cwd: config.runtime === "process" ? portable(config.baseline.cwd) : config.baseline.cwd,
      build: config.baseline.build ? { ...config.baseline.build, context: portable(config.baseline.build.context) ?? "" } : undefined,
    },
    candidate: {
      ...config.candidate,
      patch: undefined,
      sourceDir: config.runtime === "process" ? portable(config.candidate.sourceDir) : config.candidate.sourceDir,
      cwd: config.runtime === "process" ? portable(config.candidate.cwd) : config.candidate.cwd,
      build: config.candidate.build ? { ...config.candidate.build, context: portable(config.candidate.build.context) ?? "" } : undefined,
    },
    bench: {
      ...bench,
      prompts: typeof config.bench.prompts === "string" ? (portable(config.bench.prompts) ?? "") : config.bench.prompts,
      ...(typeof config.bench.tokenizer === "object" && config.bench.tokenizer.from === "runner"
        ? { tokenizer: { ...config.bench.tokenizer, path: portable(config.bench.tokenizer.path) ?? "" } }
        : {}),
    },
    docker: { ...config.docker, mounts: config.docker.mounts.map((mount) => ({ ...mount, source: portable(mount.source) ?? "" })) },
    gate: { ...config.gate, calibration: portable(config.gate.calibration) },
    // Only with quality: a config without it hashes as it did before it existed.
    ...(config.quality ? { quality: { ...config.quality, questions: portable(config.quality.questions) ?? "" } } : {}),
    // Only when there are scenarios: a config without them hashes as it did before they existed.
    ...(config.scenarios
      ? {
          scenarios: config.scenarios.map((scenario) =>
            typeof scenario.prompts === "string" ? { ...scenario, prompts: portable(scenario.prompts) } : scenario,
          ),
        }
      : {}),
  };
  return { configHash: sha256(JSON.stringify(comparable)), promptsHash: sha256(JSON.stringify(prompts)) };
}
