import { getCollaboratorRole } from "../src/github/get-collaborator-role.js";
import type { GitHubClient, RepoRef } from "../src/github/github-client.js";

/** How long one account's role on one repository is kept: a revoked permission still works this long. */
export const ROLE_CACHE_MS = 60_000;
/** Accounts kept at most, the oldest forgotten first: a flood of new accounts costs memory only up to this. */
const CAPACITY = 10_000;

/**
 * Each account's collaborator permission on a repository, read once per ROLE_CACHE_MS. On an
 * organisation's repository the payload cannot settle whether a commenter has permission
 * (bot/outsider-by-association.ts), so every `/rescore` from one account cost one permission read of
 * the installation's rate limit; a hundred comments from one account now cost one. Kept per app
 * process: a replica that has not seen the account asks once itself. A read that fails is not kept.
 */
export class CollaboratorRoleCache {
  readonly #roles = new Map<string, { role: Promise<string>; until: number }>();

  constructor(
    private readonly ttlMs = ROLE_CACHE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async read(client: GitHubClient, repo: RepoRef, username: string): Promise<string> {
    const key = `${repo.owner}/${repo.repo}\n${username}`.toLowerCase();
    const now = this.now();
    const cached = this.#roles.get(key);
    if (cached && cached.until > now) return await cached.role;
    const entry = { role: getCollaboratorRole(client, { ...repo, username }), until: now + this.ttlMs };
    this.#roles.delete(key);
    this.#roles.set(key, entry);
    while (this.#roles.size > CAPACITY) {
      const oldest = this.#roles.keys().next().value;
      if (oldest === undefined) break;
      this.#roles.delete(oldest);
    }
    try {
      return await entry.role;
    } catch (error) {
      if (this.#roles.get(key) === entry) this.#roles.delete(key);
      throw error;
    }
  }
}
