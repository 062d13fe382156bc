import { fetchMissingCommits } from "../src/git/fetch-missing-commits.js";
import { listRemoteRefs } from "../src/git/list-remote-refs.js";
import { findRepositoryRoot, resolveCommit } from "../src/git/resolve-commit.js";
import { GitError } from "../src/git/run-git.js";
import type { Logger } from "../src/logger.js";
import { ConfigError } from "../src/vocabulary/config-error.js";
import type { ActionContext } from "./action-context.js";
import type { RunSettings } from "./action-settings.js";
import { findOwnBranches } from "./find-own-branches.js";
import { type DispatchClaim, readDispatchCommits } from "./read-dispatch-commits.js";
import { readOwnBranches } from "./read-own-branches.js";
import { untrustedProcessConfig } from "./refuse-untrusted-process-round.js";

function describeInput(claim: DispatchClaim, value: string): string {
  return `workflow_dispatch input "${claim.input}" (${value})`;
}

/**
 * Patch mode's half of the dispatch fence. A workflow_dispatch whose inputs name no pull request by
 * name passed as the repository's own, but its workflow may still fetch the patch of whatever its
 * inputs name (`{number}`, `{sha}`, `{patch_url}`) and hand it over through `patch:` or the config's
 * patch file. So under runtime: process without candidate.trusted every commit the inputs name is
 * fetched and checked as base/head mode checks its head: it must be on one of the branches the
 * remote lists. A number is a pull request's when the remote has refs/pull/N/head (then its head is
 * what is checked); a URL counts only as one of this repository's pull requests or commits.
 */
export async function refuseUnreachablePatch(settings: RunSettings, context: ActionContext, logger: Logger): Promise<void> {
  // patch-from-pr is the pull request's by definition, and refused (or trusted) before this.
  if (settings.patch.kind === "pull-request") return;
  const claims = readDispatchCommits(context);
  if (claims.length === 0) return;
  const path = await untrustedProcessConfig(settings);
  if (path === null) return;
  const refuse = (claim: DispatchClaim, value: string, why: string): ConfigError =>
    new ConfigError(
      `${path}: runtime: process runs the candidate's code as the runner's own user (its files, its sockets, what later steps run), ` +
        `so it is for trusted code only, and this round's patch may come from ${describeInput(claim, value)}, which ${why}: ` +
        "it may be a pull request's code, a fork's included. Score it with runtime: docker, or set candidate.trusted: true in the " +
        "round config if everyone who can open a pull request that reaches this workflow is trusted.",
    );
  for (const claim of claims) {
    if (claim.kind === "untraceable") throw refuse(claim, claim.value, `is a URL the fence cannot check: ${claim.why}`);
  }

  const repoDir = settings.commits.repositoryPath ?? context.workspace ?? process.cwd();
  if ((await findRepositoryRoot(repoDir)) === null) {
    const first = claims[0] as DispatchClaim;
    throw refuse(
      first,
      describeClaim(first),
      `cannot be checked against the repository's branches: ${repoDir} is not a clone of it (check it out with actions/checkout ` +
        'and fetch-depth: 0, or point input "repository-path" at one)',
    );
  }
  const auth = { token: settings.githubToken, serverUrl: context.serverUrl };
  const branches = await readOwnBranches(repoDir, settings, context, { configPath: path, what: "the commits this dispatch names" });
  const pulls = claims.filter((claim) => claim.kind === "pull");
  let heads = new Map<string, string>();
  try {
    if (pulls.length > 0)
      heads = await listRemoteRefs(
        repoDir,
        pulls.map((claim) => `refs/pull/${claim.number}/head`),
        auth,
      );
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    const first = pulls[0] as DispatchClaim;
    throw refuse(first, describeClaim(first), `could not be looked up on the remote (${error.message})`);
  }

  const checks: Array<{ claim: DispatchClaim; value: string; sha: string }> = [];
  for (const claim of claims) {
    if (claim.kind === "commit") checks.push({ claim, value: claim.sha, sha: claim.sha });
    else if (claim.kind === "abbreviation") {
      const sha = await resolveCommit(repoDir, claim.revision);
      if (sha === null)
        throw refuse(claim, claim.revision, "names no commit the clone has, and an abbreviated SHA cannot be fetched to check it");
      checks.push({ claim, value: claim.revision, sha });
    } else if (claim.kind === "pull") {
      const head = heads.get(`refs/pull/${claim.number}/head`);
      // A number the remote has no pull request for is some other count; a value that says it is a pull request must be one.
      if (head === undefined && !claim.explicit) continue;
      if (head === undefined)
        throw refuse(claim, `pull request #${claim.number}`, "the remote has no such pull request (refs/pull/N/head)");
      checks.push({ claim, value: `pull request #${claim.number}, whose head is ${head}`, sha: head });
    }
  }
  for (const { claim, value, sha } of checks) {
    try {
      await fetchMissingCommits(repoDir, [sha], { ...auth, logger });
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      throw refuse(claim, value, `could not be fetched to check it (${error.message})`);
    }
    const found = await findOwnBranches(repoDir, sha, branches, settings, context, logger);
    if (found.length === 0)
      throw refuse(claim, value, `is on none of the repository's branches (the remote's branch list, checked in ${repoDir})`);
    logger.info(`${describeInput(claim, value)} is on the repository's branch ${found[0] ?? ""}: the repository's own code`);
  }
}

function describeClaim(claim: DispatchClaim): string {
  switch (claim.kind) {
    case "commit":
      return claim.sha;
    case "abbreviation":
      return claim.revision;
    case "pull":
      return `pull request #${claim.number}`;
    case "untraceable":
      return claim.value;
  }
}
