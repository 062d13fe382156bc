/**
 * The one thing src/ needs from an Octokit: `request(route, params)`. Probot's context.octokit and
 * @actions/github's getOctokit both fit, so the app and the action share the same GitHub calls.
 */
export interface GitHubResponse {
  status: number;
  data: unknown;
  headers: Record<string, string | number | undefined>;
}

export interface GitHubClient {
  request(route: string, parameters?: Record<string, unknown>): Promise<GitHubResponse>;
}

export interface RepoRef {
  owner: string;
  repo: string;
}

/** The HTTP status of an Octokit RequestError, or null for anything else. */
export function statusOf(error: unknown): number | null {
  if (typeof error === "object" && error !== null && "status" in error && typeof error.status === "number") return error.status;
  return null;
}
