import type { Probot } from "probot";
import { statusOf } from "../../src/github/github-client.js";
import type { AccessSource } from "./repository-access.js";

/** GitHub's web origin and REST API for the pages: github.com, or GHE_HOST (GitHub Enterprise Server, the tests' fake). */
export function githubUrls(env: NodeJS.ProcessEnv): { webUrl: string; apiUrl: string } {
  const host = env.GHE_HOST?.trim();
  if (!host) return { webUrl: "https://github.com", apiUrl: "https://api.github.com" };
  const protocol = env.GHE_PROTOCOL?.trim() || "https";
  return { webUrl: `${protocol}://${host}`, apiUrl: `${protocol}://${host}/api/v3` };
}

/**
 * The answers the pages' access rules need, from GitHub: a repository's visibility as the app's own
 * installation sees it (not installed: absent), and whether a signed-in user's own token (a
 * user-to-server token, which reads only what both the user and the app may) reads the repository.
 */
export function githubAccessSource(app: Probot, apiUrl: string, fetcher: typeof fetch = fetch): AccessSource {
  return {
    visibility: async (owner, repo) => {
      const octokit = await app.auth();
      let installationId: number;
      try {
        const { data } = await octokit.request("GET /repos/{owner}/{repo}/installation", { owner, repo });
        installationId = data.id;
      } catch (error) {
        if (statusOf(error) === 404) return "absent";
        throw error;
      }
      const installation = await app.auth(installationId);
      try {
        const { data } = await installation.request("GET /repos/{owner}/{repo}", { owner, repo });
        return data.private ? "private" : "public";
      } catch (error) {
        if (statusOf(error) === 404) return "absent";
        throw error;
      }
    },
    userAccess: async (token, owner, repo) => {
      const response = await fetcher(`${apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, {
        headers: { accept: "application/vnd.github+json", authorization: `Bearer ${token}`, "user-agent": "speedgate-pages" },
      });
      if (response.status === 401) return "expired";
      if (response.status === 403 || response.status === 404) return "none";
      if (!response.ok) throw new Error(`GitHub answered ${response.status} to the access check of ${owner}/${repo}`);
      const data = (await response.json()) as { permissions?: { pull?: boolean } };
      return data.permissions?.pull === false ? "none" : "read";
    },
  };
}
