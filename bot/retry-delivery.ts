import { setTimeout as delay } from "node:timers/promises";
import { statusOf } from "../src/github/github-client.js";

/*
 * GitHub does not redeliver a webhook by itself, and Probot answers `202` to a delivery still being
 * handled after 9 s, after which a failure is only logged. So work that failed on a passing GitHub
 * outage is tried again here, in-process, with backoff, bounded in attempts and in time.
 */

export interface DeliveryRetryPolicy {
  /** The waits before the second, third, … attempt (ms): their number bounds the attempts. */
  delaysMs: readonly number[];
  /** No attempt starts later than this after the first one started (ms). */
  budgetMs: number;
}

/** Each attempt already carries Octokit's own retries (about 14 s for a 5xx), so these waits are longer. */
export const DEFAULT_DELIVERY_RETRY: DeliveryRetryPolicy = { delaysMs: [5_000, 30_000, 120_000, 300_000], budgetMs: 10 * 60_000 };

/** A GitHub answer that may be different a little later: a server error, or a rate limit. */
export function isTransientGitHubError(error: unknown): boolean {
  const status = statusOf(error);
  if (status === null) return false;
  if (status >= 500 || status === 429) return true;
  return status === 403 && error instanceof Error && /rate limit/i.test(error.message);
}

export interface RetryHooks {
  /** Called before each wait; `attempt` is the one that failed (1-based). */
  onRetry: (attempt: number, error: unknown, delayMs: number) => void;
  isRetryable?: (error: unknown) => boolean;
}

/** Runs `work` until it succeeds, the error is not transient, or the policy is spent; then throws the last error. */
export async function retryDelivery<T>(policy: DeliveryRetryPolicy, hooks: RetryHooks, work: (attempt: number) => Promise<T>): Promise<{ value: T; attempts: number }> {
  const isRetryable = hooks.isRetryable ?? isTransientGitHubError;
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await work(attempt), attempts: attempt };
    } catch (error) {
      const wait = policy.delaysMs[attempt - 1];
      if (wait === undefined || !isRetryable(error) || performance.now() - started + wait > policy.budgetMs) throw error;
      hooks.onRetry(attempt, error, wait);
      await delay(wait);
    }
  }
}
