import type { Logger } from "../logger.js";
import { type RemoteAuth, buildRemoteAuthConfig } from "./build-remote-auth-config.js";
import { resolveCommit } from "./resolve-commit.js";
import { gitText, runGit } from "./run-git.js";

export interface FetchOptions extends RemoteAuth {
  /** The remote to fetch from (actions/checkout names it origin). */
  remote?: string;
  logger: Logger;
  signal?: AbortSignal;
}

/**
 * Makes sure the repository has these commits and the history between them: a missing commit is
 * fetched by its SHA (GitHub serves any commit reachable from the repository's refs, a fork's pull
 * request head included, through refs/pull/N/head), and a shallow clone is deepened to its full
 * history, which the ancestry of the image's commit and the merge base need.
 */
export async function fetchMissingCommits(repoDir: string, commits: readonly string[], options: FetchOptions): Promise<void> {
  const remote = options.remote ?? "origin";
  const config = buildRemoteAuthConfig(options);
  const fetch = async (args: string[]): Promise<void> => {
    await runGit(repoDir, ["fetch", "--no-tags", "--no-recurse-submodules", "--quiet", ...args], {
      config,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };
  if ((await gitText(repoDir, ["rev-parse", "--is-shallow-repository"])) === "true") {
    options.logger.warn(`${repoDir} is a shallow clone: fetching its full history (actions/checkout with fetch-depth: 0 saves this step)`);
    await fetch(["--unshallow", remote]);
  }
  for (const commit of commits) {
    if (await resolveCommit(repoDir, commit, options.signal)) continue;
    if (!/^[0-9a-f]{40}$/i.test(commit)) continue;
    options.logger.info(`fetching ${commit} from ${remote}`);
    await fetch([remote, commit]);
  }
}
