import { runGit } from "./run-git.js";

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(repoDir: string, ancestor: string, descendant: string, signal?: AbortSignal): Promise<boolean> {
  const { exitCode } = await runGit(repoDir, ["merge-base", "--is-ancestor", ancestor, descendant], {
    okExitCodes: [1],
    ...(signal ? { signal } : {}),
  });
  return exitCode === 0;
}

/** The best common ancestor of two commits (what a pull request's diff is taken against), or null when they share none. */
export async function findMergeBase(repoDir: string, a: string, b: string, signal?: AbortSignal): Promise<string | null> {
  const { stdout, exitCode } = await runGit(repoDir, ["merge-base", a, b], { okExitCodes: [1], ...(signal ? { signal } : {}) });
  const sha = stdout.toString("utf8").trim().split("\n")[0] ?? "";
  return exitCode === 0 && /^[0-9a-f]{40}$/.test(sha) ? sha : null;
}

/** One file a change touches. Renames are a deletion and an addition, as the overlay applies them. */
export interface ChangedFile {
  /** A (added), M (modified), D (deleted), T (type changed). */
  status: string;
  path: string;
}

/** The same view of a change for the list and the diff: no renames, no external drivers, no colour. */
const DIFF_OPTIONS = ["--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", "--ignore-submodules=none"];

/** The files that differ between two commits, limited to `paths` (git pathspecs; all files when empty). */
export async function listChangedFiles(repoDir: string, from: string, to: string, signal?: AbortSignal): Promise<ChangedFile[]> {
  const { stdout } = await runGit(repoDir, ["diff", "--name-status", "-z", ...DIFF_OPTIONS, from, to, "--"], signal ? { signal } : {});
  const fields = stdout.toString("utf8").split("\0");
  const files: ChangedFile[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const status = fields[index] ?? "";
    const path = fields[index + 1] ?? "";
    if (status !== "" && path !== "") files.push({ status: status.charAt(0), path });
  }
  return files;
}

/**
 * The diff from one commit to another of exactly `paths`, as `git apply` takes it: binary files
 * included (--binary), full blob IDs, paths relative to the repository root (a/ b/ prefixes).
 */
export async function diffCommits(
  repoDir: string,
  from: string,
  to: string,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<Buffer> {
  if (paths.length === 0) return Buffer.alloc(0);
  const { stdout } = await runGit(
    repoDir,
    [
      "-c",
      "core.quotePath=false",
      "diff",
      "--binary",
      "--full-index",
      ...DIFF_OPTIONS,
      from,
      to,
      "--",
      ...paths.map((path) => `:(literal)${path}`),
    ],
    signal ? { signal } : {},
  );
  return stdout;
}
