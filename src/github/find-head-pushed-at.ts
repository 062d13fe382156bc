import { type GitHubClient, statusOf } from "./github-client.js";

/*
 * When did the pull request's head become this commit? A commit's own dates are the author's to
 * write (`git commit --date`, GIT_COMMITTER_DATE), and GraphQL's Commit.pushedDate was removed in
 * 2023. GitHub's record of the branch moving is the repository activity API: each push, force push
 * and branch creation with the SHA after it and GitHub's own timestamp, which the pusher cannot set.
 */

export interface HeadLocation {
  /** owner/name of the repository the head branch is in (a fork for outside contributors). */
  headRepo: string | null;
  headBranch: string | null;
  headSha: string;
}

interface Activity {
  after: string;
  timestamp: string;
}

function toActivity(value: unknown): Activity | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as { after?: unknown; timestamp?: unknown };
  if (typeof record.after !== "string" || typeof record.timestamp !== "string" || Number.isNaN(Date.parse(record.timestamp))) return null;
  return { after: record.after, timestamp: record.timestamp };
}

/**
 * The latest time the head branch was moved to `headSha`, by GitHub's clock, or null when GitHub
 * has no such record the app may read (a deleted or private fork, an Enterprise version without the
 * activity API). Only the newest 100 activities of the branch are read: the head is the branch's
 * current position, so the push that put it there is among the newest.
 */
export async function findHeadPushedAt(client: GitHubClient, head: HeadLocation): Promise<string | null> {
  const [owner, repo] = head.headRepo?.split("/") ?? [];
  if (!owner || !repo || !head.headBranch) return null;
  let data: unknown;
  try {
    const response = await client.request("GET /repos/{owner}/{repo}/activity", {
      owner,
      repo,
      ref: `refs/heads/${head.headBranch}`,
      direction: "desc",
      per_page: 100,
    });
    data = response.data;
  } catch (error) {
    const status = statusOf(error);
    if (status === 403 || status === 404 || status === 422) return null;
    throw error;
  }
  const times = (Array.isArray(data) ? data : [])
    .map(toActivity)
    .filter((activity): activity is Activity => activity !== null && activity.after === head.headSha)
    .map((activity) => activity.timestamp);
  return latestTime(times);
}

/** The latest of some ISO times (null when there are none). */
export function latestTime(times: ReadonlyArray<string | null>): string | null {
  let latest: string | null = null;
  for (const time of times) {
    if (time !== null && (latest === null || Date.parse(time) > Date.parse(latest))) latest = time;
  }
  return latest;
}
