import type { GitHubClient, RepoRef } from "./github-client.js";
import { type CommitInfo, readCommit, toCommitInfo } from "./read-commit.js";

/** A range whose good end is not on the bad end's first-parent history, as GitHub's compare shows it. */
export class NotOnMainError extends Error {
  constructor(good: string, bad: string) {
    super(
      `${good.slice(0, 12)} is not on the first-parent history of ${bad.slice(0, 12)}: a bisection of main needs a good commit ` +
        "main itself was at",
    );
    this.name = "NotOnMainError";
  }
}

const PER_PAGE = 100;
/** GitHub's compare lists at most this many commits: a longer range is refused rather than bisected on a part of it. */
const MAX_COMMITS = 2_500;

/**
 * main's first-parent commits from `good` to `bad`, both included, oldest first, as the app reads them
 * through GitHub (the CLI reads them from its clone: src/git/list-first-parent-commits.ts). Compare lists
 * every commit in good..bad, merged branches' own commits too; the walk from `bad` along first parents
 * keeps the merges main was at, which are what a bisection steps through.
 */
export async function listMainRange(client: GitHubClient, repo: RepoRef & { good: string; bad: string }): Promise<CommitInfo[]> {
  const good = await readCommit(client, { ...repo, ref: repo.good });
  if (good.sha === repo.bad) return [good];
  const bySha = new Map<string, CommitInfo>();
  let total = Number.POSITIVE_INFINITY;
  for (let page = 1; bySha.size < total && (page - 1) * PER_PAGE < MAX_COMMITS; page++) {
    const response = await client.request("GET /repos/{owner}/{repo}/compare/{basehead}", {
      owner: repo.owner,
      repo: repo.repo,
      basehead: `${good.sha}...${repo.bad}`,
      per_page: PER_PAGE,
      page,
    });
    const data = response.data as { total_commits?: unknown; commits?: unknown };
    total = typeof data.total_commits === "number" ? data.total_commits : 0;
    const listed = Array.isArray(data.commits) ? data.commits.flatMap((value: unknown) => toCommitInfo(value) ?? []) : [];
    if (listed.length === 0) break;
    for (const commit of listed) bySha.set(commit.sha, commit);
  }
  if (total > MAX_COMMITS)
    throw new Error(`${total} commits between ${repo.good.slice(0, 12)} and ${repo.bad.slice(0, 12)}: more than ${MAX_COMMITS}`);
  const chain: CommitInfo[] = [];
  let at = [...bySha.values()].find((commit) => commit.sha === repo.bad || commit.sha.startsWith(repo.bad)) ?? null;
  while (at) {
    chain.push(at);
    const parent = at.parents[0];
    if (parent === good.sha) return [good, ...chain.reverse()];
    at = parent === undefined ? null : (bySha.get(parent) ?? null);
  }
  throw new NotOnMainError(good.sha, repo.bad);
}
