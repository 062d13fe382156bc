/*
 * What the app has started handling, by key. A delivery is known by its id, but that header is not
 * signed: a captured delivery replayed under a new id carries the same signed payload, so each handler
 * also claims what the payload identifies (the comment, the workflow run and its attempt, the check
 * run and who pressed Re-run). A delivery is handled only when none of its keys was claimed before.
 * The ledger is an interface so that a database-backed one (shared by replicas, kept across restarts)
 * can replace the in-memory one.
 */

export interface DeliveryLedger {
  /** Claims every key, or none: true when none had been claimed before. */
  claim(keys: readonly string[]): Promise<boolean>;
  /** Forgets keys whose handling failed, so that GitHub's redelivery gets another try. */
  release(keys: readonly string[]): Promise<void>;
}

/** The ledger of one process: the newest `capacity` keys (after a restart a replay is caught by the command's age). */
export class MemoryDeliveryLedger implements DeliveryLedger {
  readonly #seen = new Set<string>();

  constructor(private readonly capacity = 50_000) {}

  claim(keys: readonly string[]): Promise<boolean> {
    if (keys.some((key) => this.#seen.has(key))) return Promise.resolve(false);
    for (const key of keys) this.#seen.add(key);
    while (this.#seen.size > this.capacity) {
      const oldest = this.#seen.values().next().value;
      if (oldest === undefined) break;
      this.#seen.delete(oldest);
    }
    return Promise.resolve(true);
  }

  release(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.#seen.delete(key);
    return Promise.resolve();
  }
}
