import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type YAMLError, parseDocument } from "yaml";
import type { CalibrationFile } from "../calibration/calibration-schema.js";
import { loadRoundCalibration } from "./load-round-calibration.js";
import { buildSyntheticPrompts } from "./build-synthetic-prompts.js";
import { readPromptsFile } from "./read-prompts-file.js";
import { type LoadedQuestionSet, readQuestionSet } from "./read-question-set.js";
import { type LoadedScenario, loadRoundScenarios } from "./load-round-scenarios.js";
import { sendsBenchPrompts } from "./sends-bench-prompts.js";
import { readTokenizerFile } from "../tokens/read-tokenizer-file.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { Prompt } from "../prompts/prompt.js";
import {
  type CheckedPath,
  checkConfigPaths,
  describePathProblem,
  findCwdProblems,
  listConfigPaths,
  resolveAgainst,
} from "./check-config-paths.js";
import { ConfigError } from "../vocabulary/config-error.js";
import { formatConfigIssues } from "../vocabulary/format-config-issues.js";
import { type RoundFingerprint, fingerprintRound } from "./fingerprint-round.js";
import { type LoadedPatch, loadPatch } from "./load-patch.js";
import { type RoundConfig, roundConfigSchema } from "./round-config-schema.js";
import { tokenizerLocation } from "./tokenizer-location.js";
import { type CommitsRequest, type RoundCommits, findCommitsConfigProblems, resolveRoundCommits } from "./resolve-round-commits.js";

/** Everything a round needs from the user's files, read and checked before any engine starts. */
export interface LoadedRound {
  config: RoundConfig;
  configPath: string;
  /** bench.prompts as loaded; empty in a round whose every scenario sends its own (bench.prompts is then not read). */
  prompts: Prompt[];
  /**
   * The config's scenarios, each with its merged settings and its own prompts, in config order;
   * absent when the config has none (the round is the one workload bench describes).
   */
  scenarios?: LoadedScenario[];
  patch: LoadedPatch | null;
  /** Of the whole round as loaded: a shard keeps the fingerprint of the full prompt set. */
  fingerprint?: RoundFingerprint;
  /**
   * bench.tokenizer, when it is a file on the runner: read with the rest, so a bad one stops the
   * round before anything starts. Absent when the round reads it later (from the baseline image).
   */
  tokenCounter?: TokenCounter | null;
  /** The A/A study gate.calibration names, checked against the round's settings. */
  calibration?: CalibrationFile | null;
  /** quality.questions as loaded, with the hash of the whole set (a shard keeps the full set's); absent without quality:. */
  quality?: LoadedQuestionSet;
  /**
   * Set when the round scores a pull request's own commits (base/head mode): the baseline is the
   * base, the candidate the head. Absent or null in the fixed-baseline mode (a patch).
   */
  commits?: RoundCommits | null;
}

/** Validates an already parsed config object; paths stay as written. */
export function parseRoundConfig(input: unknown, source = "round config"): RoundConfig {
  const parsed = roundConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw ConfigError.fromProblems(formatConfigIssues(parsed.error.issues, input, roundConfigSchema), source);
  }
  return parsed.data;
}

/** Errors the yaml parser gives for a line indented wrongly: they point at the line before, so name both. */
const INDENTATION_ERRORS = new Set(["BAD_INDENT", "BLOCK_AS_IMPLICIT_KEY", "MULTILINE_IMPLICIT_KEY"]);

/**
 * One line per problem: the parser's first line without its dangling colon (it introduces a code
 * frame that a one-line message cannot show), the line it points at, and for indentation the fix.
 */
function describeYamlErrors(errors: readonly YAMLError[], text: string): string[] {
  const lines = text.split(/\r?\n/);
  const byLine = new Map<number, string>();
  for (const error of errors) {
    const at = error.linePos?.[0]?.line ?? 0;
    // The parser often reports one mistake twice (two codes at the same place): the first says it.
    if (byLine.has(at)) continue;
    const first = (error.message.split("\n")[0] ?? "parse error").replace(/:\s*$/, "");
    const shown = lines[at - 1]?.trim() ? ` (${JSON.stringify(lines[at - 1]?.trim())})` : "";
    // A mapping too deep is reported on the key above it (the value that cannot hold it): name both lines.
    const around = error.code === "BAD_INDENT" ? `line ${at}` : `lines ${at} and ${at + 1}`;
    const hint = INDENTATION_ERRORS.has(error.code)
      ? `; check the indentation of ${around}: the keys of one mapping start in the same column, and a value's own keys go on the ` +
        `lines below it, indented`
      : "";
    byLine.set(at, `expected valid YAML, ${first.charAt(0).toLowerCase()}${first.slice(1)}${shown}${hint}`);
  }
  return [...byLine.values()].slice(0, 5);
}

export function parseRoundConfigYaml(text: string, source = "round config"): RoundConfig {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) throw ConfigError.fromProblems(describeYamlErrors(document.errors, text), source);
  return parseRoundConfig(document.toJS() as unknown, source);
}

/**
 * Paths in the config are relative to the config file's folder, so a round config can travel with its
 * files. Scoring commits with runtime: process, the engines' folders are the repository's (each engine
 * runs in a worktree of its commit): they stay as written, relative to the repository's root.
 */
export function resolveConfigPaths(config: RoundConfig, baseDir: string, options: { commits?: boolean } = {}): RoundConfig {
  const at = resolveAgainst(baseDir);
  const onHost = config.runtime === "process" && !options.commits;
  return {
    ...config,
    baseline: {
      ...config.baseline,
      ...(config.baseline.build ? { build: { ...config.baseline.build, context: at(config.baseline.build.context) } } : {}),
      ...(config.baseline.cwd && onHost ? { cwd: at(config.baseline.cwd) } : {}),
    },
    candidate: {
      ...config.candidate,
      ...(config.candidate.patch ? { patch: at(config.candidate.patch) } : {}),
      // With Docker the source folder and working folders are paths inside the image, not on this machine.
      ...(config.candidate.sourceDir && onHost ? { sourceDir: at(config.candidate.sourceDir) } : {}),
      ...(config.candidate.cwd && onHost ? { cwd: at(config.candidate.cwd) } : {}),
      ...(config.candidate.build ? { build: { ...config.candidate.build, context: at(config.candidate.build.context) } } : {}),
    },
    bench: {
      ...config.bench,
      prompts: typeof config.bench.prompts === "string" ? at(config.bench.prompts) : config.bench.prompts,
      ...resolvedTokenizer(config, at),
    },
    docker: { ...config.docker, mounts: config.docker.mounts.map((mount) => ({ ...mount, source: at(mount.source) })) },
    gate: { ...config.gate, ...(config.gate.calibration ? { calibration: at(config.gate.calibration) } : {}) },
    ...(config.quality ? { quality: { ...config.quality, questions: at(config.quality.questions) } } : {}),
    ...(config.scenarios
      ? {
          scenarios: config.scenarios.map((scenario) =>
            typeof scenario.prompts === "string" ? { ...scenario, prompts: at(scenario.prompts) } : scenario,
          ),
        }
      : {}),
  };
}

/** A tokenizer on the runner resolves like every other path; one inside an image stays as written. */
function resolvedTokenizer(config: RoundConfig, at: (path: string) => string): Pick<RoundConfig["bench"], "tokenizer"> {
  const location = tokenizerLocation(config);
  if (!location) return {};
  return { tokenizer: location.from === "runner" ? { path: at(location.path), from: "runner" } : location };
}

export interface LoadRoundOptions {
  /** A patch given outside the config (the action's `patch` input) replaces `candidate.patch`. */
  patchPath?: string;
  /** `speedgate calibrate` writes the file gate.calibration names: a missing or outdated one is not an error there. */
  skipCalibration?: boolean;
  /** Score these commits (base/head mode) instead of a fixed baseline and a patch. */
  commits?: CommitsRequest;
}

/** What `speedgate run --check` learns besides the round: the paths only the runner is expected to have. */
export interface RoundCheck {
  round: LoadedRound;
  /** Every path of the config, checked on this machine. */
  paths: CheckedPath[];
}

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * Reads and checks everything a round needs from the user's files. For a run, every path must be
 * there before anything starts; for a check, a path only the runner has (written absolute, or a mount
 * source) may be missing here: it is reported, and what it holds is not validated.
 */
async function readRound(configPath: string, options: LoadRoundOptions, purpose: "run" | "check"): Promise<RoundCheck> {
  const absolutePath = resolve(configPath);
  let text: string;
  try {
    text = await readFile(absolutePath, "utf8");
  } catch (error) {
    throw new ConfigError(`config: expected a readable round config file, could not read ${absolutePath} (${errorCode(error)})`);
  }
  const written = parseRoundConfigYaml(text, absolutePath);
  const baseDir = dirname(absolutePath);
  const scoringCommits = options.commits !== undefined;
  if (scoringCommits) {
    const problems = findCommitsConfigProblems(written, options.patchPath !== undefined);
    if (problems.length > 0) throw ConfigError.fromProblems(problems, absolutePath);
  }
  const config = resolveConfigPaths(written, baseDir, { commits: scoringCommits });
  const patchPath = options.patchPath ? resolve(options.patchPath) : config.candidate.patch;
  if (options.patchPath && config.runtime === "process" && !config.candidate.sourceDir) {
    throw new ConfigError(`${absolutePath}: candidate.sourceDir: expected the folder the patch applies in, but it is missing`);
  }
  const paths = await checkConfigPaths(listConfigPaths(written, baseDir, options.patchPath, { commits: scoringCommits }));
  const absent = (field: string): boolean => paths.some((entry) => entry.field === field && entry.problem !== null);
  const problems = [
    ...paths.filter((entry) => entry.problem !== null && (purpose === "run" || !entry.onRunner)).map(describePathProblem),
    ...findCwdProblems(config, patchPath !== undefined),
  ];
  if (problems.length > 0) throw ConfigError.fromProblems(problems, absolutePath);

  const tokenizer = tokenizerLocation(config);
  const tokenCounter = tokenizer?.from === "runner" && !absent("bench.tokenizer") ? await readTokenizerFile(tokenizer.path) : undefined;
  // In a check, a runner-only prompts file, tokenizer or patch that is not here is listed by the caller, not read.
  // bench.prompts that no scenario sends (each names its own) is not read either: the round has none of its own.
  const promptSource = sendsBenchPrompts(config) ? config.bench.prompts : undefined;
  let prompts: Prompt[] = [];
  if (typeof promptSource === "object") {
    // The schema holds a synthetic set to a tokenizer on the runner: it is here unless a check found it missing.
    if (tokenCounter) prompts = buildSyntheticPrompts(promptSource.synthetic, tokenCounter);
  } else if (promptSource !== undefined && !absent("bench.prompts")) {
    prompts = await readPromptsFile(promptSource, config.bench.contextLimit, "bench.prompts");
  }
  const quality = config.quality && !absent("quality.questions") ? await readQuestionSet(config.quality) : undefined;
  const patchField = options.patchPath ? "patch" : "candidate.patch";
  const patch = patchPath && !absent(patchField) ? await loadPatch(patchPath, patchField) : null;
  const finalConfig = patch ? { ...config, candidate: { ...config.candidate, patch: patch.path } } : config;
  const fingerprint = fingerprintRound(finalConfig, baseDir, prompts);
  const scenarios = finalConfig.scenarios
    ? await loadRoundScenarios({
        config: finalConfig,
        written,
        configDir: baseDir,
        benchPrompts: prompts,
        tokenCounter: tokenCounter ?? null,
        absent,
      })
    : undefined;
  const commits = options.commits ? await resolveRoundCommits(finalConfig, options.commits) : null;
  return {
    round: {
      config: finalConfig,
      configPath: absolutePath,
      prompts,
      ...(scenarios ? { scenarios } : {}),
      ...(quality ? { quality } : {}),
      patch,
      fingerprint,
      ...(tokenCounter !== undefined ? { tokenCounter } : tokenizer ? {} : { tokenCounter: null }),
      commits,
      // A check may run where the runner's files are not: then the calibration's fit is decided when the round runs. Where they
      // all are, the check decides it as the run will, so a config --check calls valid is one run accepts (#39).
      calibration:
        options.skipCalibration || (purpose === "check" && paths.some((path) => path.problem !== null))
          ? null
          : await loadRoundCalibration(finalConfig, absolutePath, baseDir, prompts.length, fingerprint, scenarios, commits !== null),
    },
    paths,
  };
}

/** The round, with every path of its config checked: a missing one is a ConfigError (exit 2) before anything starts. */
export async function loadRound(configPath: string, options: LoadRoundOptions = {}): Promise<LoadedRound> {
  return (await readRound(configPath, options, "run")).round;
}

/** For `speedgate run --check`: the round as far as this machine can tell, and the paths the runner must have. */
export async function checkRound(configPath: string, options: LoadRoundOptions = {}): Promise<RoundCheck> {
  return await readRound(configPath, options, "check");
}
