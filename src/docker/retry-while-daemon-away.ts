import type { Logger } from "../logger.js";
import { describeDaemonConnectionLoss } from "./describe-daemon-connection-loss.js";

export interface DaemonRetryOptions {
  /** How long to keep trying after the first lost connection. */
  budgetMs: number;
  logger: Logger;
  /** What is being retried, for the log: "removing the run's containers". */
  what: string;
}

const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 2_000;

/**
 * Runs `action`, and again while it fails because the daemon does not answer (a restart takes a
 * few seconds), until the budget is spent. A gone daemon sends no event to wait for, so this polls,
 * backing off. Any other error, and the last connection error, are thrown.
 */
export async function retryWhileDaemonAway<T>(action: () => Promise<T>, options: DaemonRetryOptions): Promise<T> {
  const deadline = performance.now() + options.budgetMs;
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await action();
    } catch (error) {
      const lost = describeDaemonConnectionLoss(error);
      const left = deadline - performance.now();
      if (!lost || left <= 0) throw error;
      options.logger.warn(`docker: the daemon does not answer (${lost}); ${options.what} again in ${pause} ms`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
}
