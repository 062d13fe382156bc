import { runGit } from "./run-git.js";

/**
 * A detached worktree of `commit` at `dir`: the repository's files at that commit, sharing its object
 * store, so a checkout costs the files written and nothing downloaded.
 */
export async function addWorktree(repoDir: string, dir: string, commit: string, signal?: AbortSignal): Promise<void> {
  await runGit(repoDir, ["worktree", "add", "--detach", "--force", dir, commit], signal ? { signal } : {});
}

/** Removes a worktree and its registration in the repository, even when it has changes (an engine's build output). */
export async function removeWorktree(repoDir: string, dir: string): Promise<void> {
  await runGit(repoDir, ["worktree", "remove", "--force", "--force", dir], { okExitCodes: [128] });
  // A worktree removed from disk by other means leaves its registration behind; prune drops it.
  await runGit(repoDir, ["worktree", "prune"]);
}
