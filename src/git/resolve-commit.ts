import { GitError, gitText, runGit } from "./run-git.js";

/** The top folder of the git repository `dir` is in, or null when it is in none. */
export async function findRepositoryRoot(dir: string): Promise<string | null> {
  try {
    return await gitText(dir, ["rev-parse", "--show-toplevel"]);
  } catch (error) {
    if (error instanceof GitError && error.exitCode !== null) return null;
    throw error;
  }
}

/**
 * The full SHA of a revision (a SHA, an abbreviation, a branch, HEAD~2…) in this repository, or null
 * when the repository does not have it. Never guesses: an ambiguous abbreviation is null too.
 */
export async function resolveCommit(repoDir: string, revision: string, signal?: AbortSignal): Promise<string | null> {
  // "--" would be a path; a leading "-" an option: neither is a revision a person means.
  if (revision.trim() === "" || revision.startsWith("-")) return null;
  const { stdout, exitCode } = await runGit(repoDir, ["rev-parse", "--quiet", "--verify", "--end-of-options", `${revision}^{commit}`], {
    okExitCodes: [1, 128],
    ...(signal ? { signal } : {}),
  });
  const sha = stdout.toString("utf8").trim();
  return exitCode === 0 && /^[0-9a-f]{40}$/.test(sha) ? sha : null;
}
