import type { WorkContext, WorkHandler } from "../../../src/store/work-queue.js";

/**
 * Counts what a test's handler did per job key, and lets the test await a count instead of sleeping.
 */
export class QueueProbe {
  readonly runs = new Map<string, number>();
  readonly successes = new Map<string, number>();
  readonly order: string[] = [];
  readonly #waiters: Array<{ ready: () => boolean; resolve: () => void }> = [];

  /** A handler that records each run of a `{ key }` payload and then does `work` (throw to fail it). */
  handler(work: (key: string, context: WorkContext) => Promise<void> = () => Promise.resolve()): WorkHandler {
    return async (payload, context) => {
      const key = String((payload as { key?: unknown }).key);
      this.runs.set(key, (this.runs.get(key) ?? 0) + 1);
      try {
        await work(key, context);
      } finally {
        this.#check();
      }
      this.successes.set(key, (this.successes.get(key) ?? 0) + 1);
      this.order.push(key);
      this.#check();
    };
  }

  get totalSuccesses(): number {
    let total = 0;
    for (const count of this.successes.values()) total += count;
    return total;
  }

  /** Resolves once `ready()` holds, checked after every run. */
  async until(ready: () => boolean): Promise<void> {
    if (ready()) return;
    await new Promise<void>((resolve) => this.#waiters.push({ ready, resolve }));
  }

  #check(): void {
    for (const waiter of [...this.#waiters]) {
      if (!waiter.ready()) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}

/** A promise with its resolve, for handlers that must wait for the test. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
