/**
 * Runs tasks one at a time per key (a pull request), in arrival order. Two runs finishing together
 * for one pull request would otherwise both find no comment and both create one.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Keys with work pending; tests and the benchmark wait for it to drain. */
  get size(): number {
    return this.#tails.size;
  }
}
