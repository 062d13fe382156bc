import type { CommitsRequest } from "../src/config/resolve-round-commits.js";
import type { Logger } from "../src/logger.js";
import { ConfigError } from "../src/vocabulary/config-error.js";
import type { ActionContext } from "./action-context.js";
import type { RunSettings } from "./action-settings.js";
import { findOwnBranches } from "./find-own-branches.js";
import { readOwnBranches } from "./read-own-branches.js";
import { pullRequestPatchOrigin, untrustedProcessConfig } from "./refuse-untrusted-process-round.js";

/**
 * The event and its input names say whether a run is for a pull request, but a workflow_dispatch's
 * inputs are whatever its workflow declares: `{sha, base}`, `{head_sha}` or `{ref: refs/pull/5/head}`
 * named no pull request, and base/head mode then fetched whatever SHA GitHub serves (a fork's head
 * too) and ran it with runtime: process. So in base/head mode the head itself decides: one that no
 * branch of the repository holds (checked after the fetch, against the remote's branches) is a pull
 * request's code whatever the event, and runs as a process only with candidate.trusted. A branch is
 * one the remote's own branch list names, at the tip it lists (readOwnBranches): not whatever a fetch
 * refspec put under refs/remotes/origin/, such as a fork's head at origin/pr/5.
 */
export async function refuseUnreachableHead(
  settings: RunSettings,
  context: ActionContext,
  commits: CommitsRequest,
  logger: Logger,
): Promise<void> {
  // Already judged a pull request's by its event: refused before the fetch, or trusted by the config.
  if (pullRequestPatchOrigin(settings, context) !== null) return;
  const path = await untrustedProcessConfig(settings);
  if (path === null) return;
  const repoDir = commits.repoDir ?? process.cwd();
  const own = await readOwnBranches(repoDir, settings, context, { configPath: path, what: `this round's head ${commits.head}` });
  const branches = await findOwnBranches(repoDir, commits.head, own, settings, context, logger);
  if (branches.length > 0) {
    logger.info(
      `The head ${commits.head} is on the repository's branch ` +
        `${branches[0] ?? ""}${branches.length > 1 ? ` and ${branches.length - 1} more` : ""}: the repository's own code`,
    );
    return;
  }
  throw new ConfigError(
    `${path}: runtime: process runs the candidate's code as the runner's own user (its files, its sockets, what later steps run), ` +
      `so it is for trusted code only, and this round's head ${commits.head} is on none of the repository's branches (those the ` +
      `remote's branch list names, at their tips, checked in ${repoDir}; a ref a fetch refspec wrote, such as origin/pr/5, is none): ` +
      "it may be a pull request's code, a fork's included, whatever the event and its inputs are named. " +
      "Score it with runtime: docker, or set candidate.trusted: true in the round config if everyone who can open a pull request " +
      "that reaches this workflow is trusted " +
      "(a head that is on a branch, with actions/checkout's fetch-depth: 0, runs as before).",
  );
}
