/**
 * Delivery ids this process has started handling. GitHub redelivers (and the same delivery can be
 * sent twice by hand): the second copy is dropped. The log is in memory, so after a restart a
 * redelivery is handled again; every handler is idempotent on GitHub's side (the marked comment is
 * edited, the check updated) so that costs an API call, not a second comment.
 */
export class DeliveryLog {
  readonly #seen = new Set<string>();

  constructor(private readonly capacity = 10_000) {}

  /** True the first time an id is claimed. */
  claim(id: string): boolean {
    if (this.#seen.has(id)) return false;
    this.#seen.add(id);
    if (this.#seen.size > this.capacity) {
      const oldest = this.#seen.values().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
    return true;
  }

  /** Forgets an id whose handling failed, so that GitHub's redelivery gets another try. */
  release(id: string): void {
    this.#seen.delete(id);
  }
}
