import { type GitHubClient, type RepoRef, statusOf } from "./github-client.js";

/**
 * The user's role on the repository from the collaborator permission endpoint (author_association
 * is not reliable for this). role_name tells maintain and triage apart; permission is the fallback.
 * A user the endpoint does not know has no role.
 */
export async function getCollaboratorRole(client: GitHubClient, options: RepoRef & { username: string }): Promise<string> {
  try {
    const response = await client.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", {
      owner: options.owner,
      repo: options.repo,
      username: options.username,
    });
    const data = response.data as { role_name?: unknown; permission?: unknown };
    if (typeof data.role_name === "string" && data.role_name !== "") return data.role_name;
    return typeof data.permission === "string" ? data.permission : "none";
  } catch (error) {
    if (statusOf(error) === 404) return "none";
    throw error;
  }
}
