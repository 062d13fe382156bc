import { fetchMissingCommits } from "../src/git/fetch-missing-commits.js";
import { listBranchesContaining } from "../src/git/list-branches-containing.js";
import { GitError } from "../src/git/run-git.js";
import type { Logger } from "../src/logger.js";
import type { ActionContext } from "./action-context.js";
import type { RunSettings } from "./action-settings.js";

/**
 * The repository's branches (`own`, from readOwnBranches) that hold `commit`. A branch pushed to
 * since the checkout has its new tip fetched first, so that a commit on it is not taken for a
 * stranger's; a fetch that fails leaves the commit unproven, which the fence refuses.
 */
export async function findOwnBranches(
  repoDir: string,
  commit: string,
  own: ReadonlyMap<string, string>,
  settings: RunSettings,
  context: ActionContext,
  logger: Logger,
): Promise<string[]> {
  const found = await listBranchesContaining(repoDir, commit, own);
  if (found.branches.length > 0 || found.missingTips.length === 0) return found.branches;
  try {
    await fetchMissingCommits(repoDir, found.missingTips, { token: settings.githubToken, serverUrl: context.serverUrl, logger });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    logger.warn(`Could not fetch the branches that moved on since the checkout (${error.message})`);
    return [];
  }
  return (await listBranchesContaining(repoDir, commit, own)).branches;
}
