import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { parseDocument } from "yaml";
import type { CalibrationFile } from "../calibration/calibration-schema.js";
import { loadRoundCalibration } from "../calibration/load-round-calibration.js";
import { parsePrompts } from "../prompts/parse-prompts.js";
import type { Prompt } from "../prompts/prompt.js";
import { ConfigError } from "./config-error.js";
import { formatConfigIssues } from "./format-config-issues.js";
import { type RoundFingerprint, fingerprintRound } from "./fingerprint-round.js";
import { type LoadedPatch, loadPatch } from "./load-patch.js";
import { type RoundConfig, roundConfigSchema } from "./round-config-schema.js";

/** Everything a round needs from the user's files, read and checked before any engine starts. */
export interface LoadedRound {
  config: RoundConfig;
  configPath: string;
  prompts: Prompt[];
  patch: LoadedPatch | null;
  /** Of the whole round as loaded: a shard keeps the fingerprint of the full prompt set. */
  fingerprint?: RoundFingerprint;
  /** The A/A study gate.calibration names, checked against the round's settings. */
  calibration?: CalibrationFile | null;
}

/** Validates an already parsed config object; paths stay as written. */
export function parseRoundConfig(input: unknown, source = "round config"): RoundConfig {
  const parsed = roundConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw ConfigError.fromProblems(formatConfigIssues(parsed.error.issues, input, roundConfigSchema), source);
  }
  return parsed.data;
}

export function parseRoundConfigYaml(text: string, source = "round config"): RoundConfig {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw ConfigError.fromProblems(
      document.errors.map((error) => `expected valid YAML, ${error.message.split("\n")[0] ?? "parse error"}`),
      source,
    );
  }
  return parseRoundConfig(document.toJS() as unknown, source);
}

/** Paths in the config are relative to the config file's folder, so a round config can travel with its files. */
export function resolveConfigPaths(config: RoundConfig, baseDir: string): RoundConfig {
  const at = (path: string): string => (isAbsolute(path) ? path : resolve(baseDir, path));
  return {
    ...config,
    baseline: {
      ...config.baseline,
      ...(config.baseline.build ? { build: { ...config.baseline.build, context: at(config.baseline.build.context) } } : {}),
      ...(config.baseline.cwd && config.runtime === "process" ? { cwd: at(config.baseline.cwd) } : {}),
    },
    candidate: {
      ...config.candidate,
      ...(config.candidate.patch ? { patch: at(config.candidate.patch) } : {}),
      // With Docker the source folder is a path inside the image, not on this machine.
      ...(config.candidate.sourceDir && config.runtime === "process" ? { sourceDir: at(config.candidate.sourceDir) } : {}),
      ...(config.candidate.build ? { build: { ...config.candidate.build, context: at(config.candidate.build.context) } } : {}),
    },
    bench: { ...config.bench, prompts: at(config.bench.prompts) },
    gate: { ...config.gate, ...(config.gate.calibration ? { calibration: at(config.gate.calibration) } : {}) },
  };
}

export interface LoadRoundOptions {
  /** A patch given outside the config (the action's `patch` input) replaces `candidate.patch`. */
  patchPath?: string;
  /** `speedgate calibrate` writes the file gate.calibration names: a missing or outdated one is not an error there. */
  skipCalibration?: boolean;
}

export async function loadRound(configPath: string, options: LoadRoundOptions = {}): Promise<LoadedRound> {
  const absolutePath = resolve(configPath);
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (error) {
    throw new ConfigError(`config: expected a readable round config file, could not read ${absolutePath} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const config = resolveConfigPaths(parseRoundConfigYaml(text, absolutePath), dirname(absolutePath));
  const patchPath = options.patchPath ? resolve(options.patchPath) : config.candidate.patch;
  if (options.patchPath && config.runtime === "process" && !config.candidate.sourceDir) {
    throw new ConfigError(`${absolutePath}: candidate.sourceDir: expected the folder the patch applies in, but it is missing`);
  }
  let promptText: string;
  try {
    promptText = await readFile(config.bench.prompts, "utf8");
  } catch (error) {
    throw new ConfigError(`bench.prompts: expected a readable JSONL file, could not read ${config.bench.prompts} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const prompts = parsePrompts(promptText, config.bench.prompts);
  const patch = patchPath ? await loadPatch(patchPath, options.patchPath ? "patch" : "candidate.patch") : null;
  const finalConfig = patch ? { ...config, candidate: { ...config.candidate, patch: patch.path } } : config;
  const fingerprint = fingerprintRound(finalConfig, dirname(absolutePath), prompts);
  return {
    config: finalConfig,
    configPath: absolutePath,
    prompts,
    patch,
    fingerprint,
    calibration: options.skipCalibration ? null : await loadRoundCalibration(finalConfig, absolutePath, dirname(absolutePath), prompts.length, fingerprint),
  };
}
