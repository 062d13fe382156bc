/*
 * A refused `/rescore` (or Re-run) is answered with one reply per person and pull request per window;
 * the ones after it get a reaction only. Without this, a hundred comments from someone without
 * permission made a hundred bot replies, each a notification to everyone watching the pull request.
 * An interface, so that a database-backed limiter can serve several replicas.
 */

export interface RefusalLimiter {
  /**
   * True when a reply may be posted for `key` now; it then counts for the window. `claimant` names the
   * work asking: the same work asking again (a retry whose reply did not post) is allowed again.
   */
  allowReply(key: string, claimant?: string): Promise<boolean>;
  /**
   * True when fewer than `limit` answers were taken under `scope` in the window; it then counts. Caps
   * what many people (or accounts) together can make the app say on one pull request or repository.
   */
  allowWithin(scope: string, limit: number): Promise<boolean>;
}

export const REFUSAL_WINDOW_MS = 60 * 60_000;

/** The keys of a scope's `limit` slots: an answer takes a free one for the window. */
export function slotKeys(scope: string, limit: number): string[] {
  return Array.from({ length: limit }, (_, index) => `${scope}#slot${index}`);
}

export class MemoryRefusalLimiter implements RefusalLimiter {
  readonly #until = new Map<string, { until: number; claimant: string | undefined }>();

  constructor(
    private readonly windowMs = REFUSAL_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  allowReply(key: string, claimant?: string): Promise<boolean> {
    const now = this.now();
    for (const [known, taken] of this.#until) if (taken.until <= now) this.#until.delete(known);
    const taken = this.#until.get(key);
    if (taken && !(claimant !== undefined && taken.claimant === claimant)) return Promise.resolve(false);
    this.#until.set(key, { until: now + this.windowMs, claimant });
    return Promise.resolve(true);
  }

  allowWithin(scope: string, limit: number): Promise<boolean> {
    const now = this.now();
    const free = slotKeys(scope, limit).find((key) => (this.#until.get(key)?.until ?? 0) <= now);
    if (free === undefined) return Promise.resolve(false);
    this.#until.set(free, { until: now + this.windowMs, claimant: undefined });
    return Promise.resolve(true);
  }
}
