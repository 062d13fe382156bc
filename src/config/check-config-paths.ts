import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { describeValue } from "../vocabulary/describe-value.js";
import { sendsBenchPrompts } from "./sends-bench-prompts.js";
import type { RoundConfig } from "./round-config-schema.js";
import { tokenizerLocation } from "./tokenizer-location.js";

export type PathKind = "file" | "folder" | "file or folder";

/** One path the round config names on this machine, as written and as resolved. */
export interface ConfigPath {
  /** The field, as error messages name it: `candidate.sourceDir`, `docker.mounts[0].source`. */
  field: string;
  written: string;
  path: string;
  kind: PathKind;
  /** What the path is for, said in the message: "where the patch applies". */
  purpose: string;
  /**
   * A path only the runner is expected to have: written absolute (the runner's own files, such as a
   * private prompt set), or a mount source (weights, caches). `run --check` lists these as the
   * runner's prerequisites; relative paths travel with the config and are checked everywhere.
   */
  onRunner: boolean;
}

export interface CheckedPath extends ConfigPath {
  /** null when the path is there, of the right kind and readable; else what is wrong, for the message. */
  problem: string | null;
}

/** Resolves a path the way the whole config does: relative to the config file's folder. */
export const resolveAgainst =
  (baseDir: string) =>
  (path: string): string =>
    isAbsolute(path) ? path : resolve(baseDir, path);

/**
 * Every path of a config (as parsed, before its paths are resolved) that must exist on the machine
 * that runs the round. With Docker, `cwd` and `candidate.sourceDir` are paths inside the image, not here.
 */
export function listConfigPaths(
  config: RoundConfig,
  baseDir: string,
  patchPath?: string,
  options: { commits?: boolean } = {},
): ConfigPath[] {
  const at = resolveAgainst(baseDir);
  const paths: ConfigPath[] = [];
  const add = (field: string, written: string | undefined, kind: PathKind, purpose: string, mount = false): void => {
    if (written === undefined) return;
    paths.push({ field, written, path: at(written), kind, purpose, onRunner: mount || isAbsolute(written) });
  };
  // Synthetic prompts are made from the tokenizer, not read from a file; bench.prompts that no scenario sends is never read.
  if (typeof config.bench.prompts === "string" && sendsBenchPrompts(config))
    add("bench.prompts", config.bench.prompts, "file", "the JSONL prompts");
  config.scenarios?.forEach((scenario, index) => {
    if (typeof scenario.prompts === "string")
      add(`scenarios[${index}].prompts`, scenario.prompts, "file", `scenario ${scenario.name}'s JSONL prompts`);
  });
  if (config.quality) add("quality.questions", config.quality.questions, "file", "the JSONL question set with reference answers");
  // A tokenizer inside the baseline image is read from the image once it is there, not from this machine.
  const tokenizer = tokenizerLocation(config);
  if (tokenizer?.from === "runner") add("bench.tokenizer", tokenizer.path, "file", "the model's tokenizer.json");
  if (patchPath !== undefined) {
    // Given outside the config (--patch, the action's patch input): it replaces candidate.patch and is never the runner's.
    paths.push({
      field: "patch",
      written: patchPath,
      path: resolve(patchPath),
      kind: "file",
      purpose: "the candidate's patch",
      onRunner: false,
    });
  } else {
    add("candidate.patch", config.candidate.patch, "file", "the candidate's patch");
  }
  for (const role of ["baseline", "candidate"] as const) {
    const build = config[role].build;
    if (!build) continue;
    add(`${role}.build.context`, build.context, "folder", `the ${role} image's build context`);
    const dockerfile = join(at(build.context), build.dockerfile);
    paths.push({
      field: `${role}.build.dockerfile`,
      written: build.dockerfile,
      path: dockerfile,
      kind: "file",
      purpose: "inside the build context",
      onRunner: isAbsolute(build.context),
    });
  }
  // Scoring commits, a process engine's folders are in the worktree of its commit, checked against the commit instead.
  if (config.runtime === "process" && !options.commits) {
    add("baseline.cwd", config.baseline.cwd, "folder", "where the baseline engine runs");
    add("candidate.sourceDir", config.candidate.sourceDir, "folder", "the source copied and patched for the candidate");
    add("candidate.cwd", config.candidate.cwd, "folder", "where the candidate engine runs");
  }
  config.docker.mounts.forEach((mount, index) => {
    add(
      `docker.mounts[${index}].source`,
      mount.source,
      "file or folder",
      `mounted at ${mount.target}${mount.readOnly ? ", read-only" : ""}`,
      true,
    );
  });
  return paths;
}

async function findProblem(path: string, kind: PathKind): Promise<string | null> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `cannot be read (${code ?? (error as Error).message})`;
  }
  if (kind === "file" && !info.isFile()) return info.isDirectory() ? "is a folder" : "is not a regular file";
  if (kind === "folder" && !info.isDirectory()) return "is a file";
  try {
    await access(path, info.isDirectory() ? constants.R_OK | constants.X_OK : constants.R_OK);
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  return null;
}

export async function checkConfigPaths(paths: readonly ConfigPath[]): Promise<CheckedPath[]> {
  return await Promise.all(paths.map(async (entry) => ({ ...entry, problem: await findProblem(entry.path, entry.kind) })));
}

/** `candidate.sourceDir: expected an existing folder (where the patch applies), got "../sglang": /work/sglang does not exist`. */
export function describePathProblem(entry: CheckedPath): string {
  const where = entry.written === entry.path ? "it" : entry.path;
  return (
    `${entry.field}: expected an existing ${entry.kind} (${entry.purpose}), got ${describeValue(entry.written, 200)}: ${where} ` +
    `${entry.problem ?? "is fine"}`
  );
}

/**
 * With the process runtime the candidate runs in its patched copy of candidate.sourceDir: a
 * candidate.cwd outside that folder would run the unpatched code.
 */
export function findCwdProblems(config: RoundConfig, patched: boolean): string[] {
  if (config.runtime !== "process" || !patched || !config.candidate.cwd || !config.candidate.sourceDir) return [];
  const inside = relative(config.candidate.sourceDir, config.candidate.cwd);
  if (inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))) return [];
  return [
    `candidate.cwd: expected a folder inside candidate.sourceDir (${config.candidate.sourceDir}): the candidate runs in its patched ` +
      `copy of that folder, got ${describeValue(config.candidate.cwd, 200)}`,
  ];
}
