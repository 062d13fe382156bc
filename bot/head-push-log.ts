/*
 * When each head of a pull request became its head, as GitHub reported it in the pull_request
 * delivery (opened, synchronize, reopened: the pull request's updated_at at that moment). One of the
 * two sources the app uses to tell whether a `/rescore` was written before or after the head it
 * would score (src/github/find-head-pushed-at.ts is the other). An interface, for a database later.
 */

export interface HeadPushLog {
  record(pull: string, headSha: string, at: string): Promise<void>;
  /** The latest time `headSha` became the head of `pull`, as recorded, or null. */
  lookup(pull: string, headSha: string): Promise<string | null>;
}

export class MemoryHeadPushLog implements HeadPushLog {
  readonly #times = new Map<string, string>();

  constructor(private readonly capacity = 50_000) {}

  record(pull: string, headSha: string, at: string): Promise<void> {
    const key = `${pull}@${headSha}`;
    const known = this.#times.get(key);
    this.#times.delete(key);
    this.#times.set(key, known !== undefined && known > at ? known : at);
    while (this.#times.size > this.capacity) {
      const oldest = this.#times.keys().next().value;
      if (oldest === undefined) break;
      this.#times.delete(oldest);
    }
    return Promise.resolve();
  }

  lookup(pull: string, headSha: string): Promise<string | null> {
    return Promise.resolve(this.#times.get(`${pull}@${headSha}`) ?? null);
  }
}
