import type { GitHubClient, RepoRef } from "./github-client.js";

/** A commit as main's series names it: its SHA, when it was committed (the series' order) and its subject line. */
export interface CommitInfo {
  sha: string;
  committedAt: string | null;
  subject: string;
  /** Its parents' SHAs, the first parent first. */
  parents: string[];
}

/** A commit object of the REST API (GET commits/{ref}, compare's commits) as main's series reads it. */
export function toCommitInfo(value: unknown): CommitInfo | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as { sha?: unknown; parents?: unknown; commit?: { message?: unknown; committer?: { date?: unknown } | null } };
  if (typeof record.sha !== "string") return null;
  const message = typeof record.commit?.message === "string" ? record.commit.message : "";
  const date = record.commit?.committer?.date;
  const parents = Array.isArray(record.parents)
    ? record.parents.flatMap((parent: unknown) =>
        typeof parent === "object" && parent !== null && typeof (parent as { sha?: unknown }).sha === "string"
          ? [(parent as { sha: string }).sha]
          : [],
      )
    : [];
  return { sha: record.sha, committedAt: typeof date === "string" ? date : null, subject: message.split("\n")[0] ?? "", parents };
}

/** One commit of the repository by SHA or ref. */
export async function readCommit(client: GitHubClient, repo: RepoRef & { ref: string }): Promise<CommitInfo> {
  const response = await client.request("GET /repos/{owner}/{repo}/commits/{ref}", { owner: repo.owner, repo: repo.repo, ref: repo.ref });
  const commit = toCommitInfo(response.data);
  if (!commit) throw new Error(`GET commits/${repo.ref}: GitHub's answer is not a commit`);
  return commit;
}
