import { listRemoteRefs } from "../src/git/list-remote-refs.js";
import { GitError } from "../src/git/run-git.js";
import { ConfigError } from "../src/vocabulary/config-error.js";
import type { ActionContext } from "./action-context.js";
import type { RunSettings } from "./action-settings.js";

/**
 * The repository's branch list for the dispatch fence: `refs/heads/<name>` to its tip, read with
 * `git ls-remote` from the remote the checkout cloned (the job's token sent as the fetches send it),
 * not from GitHub's REST API and not from the clone's own refs, which a fetch refspec writes. A runner
 * that can clone can read it, GitHub Enterprise and a mirror included. When the remote cannot be
 * reached the fence cannot tell the repository's code from a pull request's, so it refuses, saying so:
 * it never falls back to the clone's refs.
 */
export async function readOwnBranches(
  repoDir: string,
  settings: RunSettings,
  context: ActionContext,
  refusal: { configPath: string; what: string },
): Promise<Map<string, string>> {
  try {
    return await listRemoteRefs(repoDir, ["refs/heads/*"], { token: settings.githubToken, serverUrl: context.serverUrl });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    throw new ConfigError(
      `${refusal.configPath}: runtime: process runs the candidate's code as the runner's own user, so it is for the repository's own ` +
        `code only, and whether ${refusal.what} is the repository's own is decided by the branch list of the remote the checkout ` +
        `cloned, which could not be read (git ls-remote origin in ${repoDir}: ${error.message}). Let the runner reach the remote ` +
        "(the job's token is sent to it as actions/checkout sends it), score with runtime: docker, or set candidate.trusted: true " +
        "in the round config if everyone who can open a pull request that reaches this workflow is trusted.",
    );
  }
}
