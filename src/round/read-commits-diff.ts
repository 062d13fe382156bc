import type { RoundCommits } from "../config/resolve-round-commits.js";
import { GitError, runGit } from "../git/run-git.js";

/** Past this, a diff is not searched for a slot change: a pull request that big is read by people, not by this. */
const MAX_DIFF_BYTES = 8 * 1024 * 1024;

/**
 * The pull request's diff (its merge base to its head) without context lines, for findSlotChange; null when git cannot
 * give it, or it is larger than is worth reading for that.
 */
export async function readCommitsDiff(commits: Pick<RoundCommits, "repoDir" | "mergeBase" | "head">): Promise<string | null> {
  try {
    const { stdout } = await runGit(commits.repoDir, ["diff", "--no-color", "--no-ext-diff", "-U0", commits.mergeBase, commits.head, "--"]);
    return stdout.byteLength > MAX_DIFF_BYTES ? null : stdout.toString("utf8");
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}
