/*
 * Who may read a repository's pages. A public repository's are open to anyone; a private one's need a
 * signed-in GitHub user whose own token reads the repository. Both answers come from GitHub and are
 * trusted for at most the cache's time (a minute by default): a user whose access was removed is refused
 * within it, and a page view costs GitHub at most one request per user and repository a minute.
 */

/** "absent": the app is not installed on it, or it does not exist; no page is served for it. */
export type RepositoryVisibility = "public" | "private" | "absent";

/** "expired": the user's token no longer works (revoked, or expired): they sign in again. */
export type UserAccess = "read" | "none" | "expired";

export interface AccessSource {
  visibility(owner: string, repo: string): Promise<RepositoryVisibility>;
  userAccess(token: string, owner: string, repo: string): Promise<UserAccess>;
}

export interface PageUser {
  id: number;
  login: string;
  token: string;
}

interface Cached<T> {
  value: T;
  until: number;
}

/** The most answers kept at once: past it the oldest go (a page view then asks GitHub again). */
const MAX_CACHED = 10_000;

export class RepositoryAccess {
  readonly #source: AccessSource;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #visibility = new Map<string, Cached<Promise<RepositoryVisibility>>>();
  readonly #users = new Map<string, Cached<Promise<UserAccess>>>();

  constructor(source: AccessSource, ttlMs: number, now: () => number = Date.now) {
    this.#source = source;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  async visibility(owner: string, repo: string): Promise<RepositoryVisibility> {
    const key = `${owner}/${repo}`.toLowerCase();
    return await this.#cached(this.#visibility, key, () => this.#source.visibility(owner, repo));
  }

  async userAccess(user: PageUser, owner: string, repo: string): Promise<UserAccess> {
    const key = `${user.id}:${user.token.slice(-8)}:${owner}/${repo}`.toLowerCase();
    return await this.#cached(this.#users, key, () => this.#source.userAccess(user.token, owner, repo));
  }

  async #cached<T>(cache: Map<string, Cached<Promise<T>>>, key: string, read: () => Promise<T>): Promise<T> {
    const now = this.#now();
    const hit = cache.get(key);
    if (hit && hit.until > now) return await hit.value;
    const value = read();
    cache.set(key, { value, until: now + this.#ttlMs });
    // A failed answer is not kept: the next view asks again.
    value.catch(() => cache.delete(key));
    if (cache.size > MAX_CACHED) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return await value;
  }
}
