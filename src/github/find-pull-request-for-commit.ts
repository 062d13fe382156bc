import type { GitHubClient, RepoRef } from "./github-client.js";

export interface PullRequestInfo {
  number: number;
  headSha: string;
  headRepo: string | null;
  /** The branch the head was pushed to, in headRepo. */
  headBranch: string | null;
  baseRepo: string | null;
  /** The commit of the base branch the pull request targets, as GitHub last computed it: the baseline of base/head scoring. */
  baseSha?: string | null;
  state: string;
  htmlUrl: string;
  author: string | null;
}

export function toPullRequest(value: unknown): PullRequestInfo | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as {
    number?: unknown;
    state?: unknown;
    html_url?: unknown;
    user?: { login?: unknown } | null;
    head?: { sha?: unknown; ref?: unknown; repo?: { full_name?: unknown } | null };
    base?: { sha?: unknown; repo?: { full_name?: unknown } | null };
  };
  if (typeof record.number !== "number" || typeof record.head?.sha !== "string") return null;
  const name = (repo: { full_name?: unknown } | null | undefined): string | null =>
    typeof repo?.full_name === "string" ? repo.full_name : null;
  return {
    number: record.number,
    headSha: record.head.sha,
    headRepo: name(record.head.repo),
    headBranch: typeof record.head.ref === "string" ? record.head.ref : null,
    baseRepo: name(record.base?.repo),
    baseSha: typeof record.base?.sha === "string" && /^[0-9a-f]{40}$/i.test(record.base.sha) ? record.base.sha.toLowerCase() : null,
    state: typeof record.state === "string" ? record.state : "",
    htmlUrl: typeof record.html_url === "string" ? record.html_url : "",
    author: typeof record.user?.login === "string" ? record.user.login : null,
  };
}

export async function getPullRequest(client: GitHubClient, options: RepoRef & { pullNumber: number }): Promise<PullRequestInfo | null> {
  const response = await client.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
    owner: options.owner,
    repo: options.repo,
    pull_number: options.pullNumber,
  });
  return toPullRequest(response.data);
}

export interface FindPullRequestOptions extends RepoRef {
  headSha: string;
  /** owner/name of the repository the commit was pushed to (a fork for outside contributors). */
  headRepo: string | null;
  /** The branch the commit was pushed to, when known: the cheap lookup that also works for forks. */
  headBranch: string | null;
}

/**
 * The open pull request into this repository whose head is exactly this commit of that repository.
 * Found through the API only, never from anything a run uploaded: first by head branch (works for
 * forks, where workflow_run.pull_requests is empty), then by the commit's associated pull requests.
 */
export async function findPullRequestForCommit(client: GitHubClient, options: FindPullRequestOptions): Promise<PullRequestInfo | null> {
  const base = `${options.owner}/${options.repo}`.toLowerCase();
  const matches = (pull: PullRequestInfo | null): pull is PullRequestInfo =>
    pull !== null &&
    pull.state === "open" &&
    pull.headSha === options.headSha &&
    (pull.baseRepo === null || pull.baseRepo.toLowerCase() === base) &&
    (options.headRepo === null || pull.headRepo?.toLowerCase() === options.headRepo.toLowerCase());
  const headOwner = options.headRepo?.split("/")[0];
  if (headOwner && options.headBranch) {
    const listed = await client.request("GET /repos/{owner}/{repo}/pulls", {
      owner: options.owner,
      repo: options.repo,
      state: "open",
      head: `${headOwner}:${options.headBranch}`,
      per_page: 100,
    });
    const found = (Array.isArray(listed.data) ? listed.data : []).map(toPullRequest).filter(matches);
    if (found.length > 0) return found.sort((a, b) => a.number - b.number)[0] ?? null;
  }
  const associated = await client.request("GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls", {
    owner: options.owner,
    repo: options.repo,
    commit_sha: options.headSha,
    per_page: 100,
  });
  const found = (Array.isArray(associated.data) ? associated.data : []).map(toPullRequest).filter(matches);
  return found.sort((a, b) => a.number - b.number)[0] ?? null;
}
