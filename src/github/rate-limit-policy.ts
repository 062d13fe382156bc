/*
 * How long the app's and the action's Octokits wait out GitHub's rate limits (for
 * @octokit/plugin-throttling). GitHub does not redeliver a webhook by itself and a job step does
 * not run twice, so a card hitting a limit is retried a bounded number of times rather than dropped.
 */

/** Retries after a secondary rate limit before a request is given up. */
export const SECONDARY_LIMIT_RETRIES = 3;
/** A primary limit resets within the hour; only a reset this close (seconds) is waited for. */
export const MAX_PRIMARY_LIMIT_WAIT_S = 60;

interface LimitedRequest {
  method: string;
  url: string;
}

interface LoggingOctokit {
  log: { warn: (message: string) => void };
}

/** plugin-throttling's onSecondaryRateLimit: true retries after `retryAfter` seconds. */
export function onSecondaryRateLimit(retryAfter: number, request: LimitedRequest, octokit: LoggingOctokit, retryCount: number): boolean {
  const retry = retryCount < SECONDARY_LIMIT_RETRIES;
  octokit.log.warn(
    `Secondary rate limit on ${request.method} ${request.url}; ${retry ? `retrying in ${retryAfter} s` : "giving up"} (attempt ` +
      `${retryCount + 1})`,
  );
  return retry;
}

/** plugin-throttling's onRateLimit: one retry when the limit resets soon enough to wait for. */
export function onPrimaryRateLimit(retryAfter: number, request: LimitedRequest, octokit: LoggingOctokit, retryCount: number): boolean {
  const retry = retryCount < 1 && retryAfter <= MAX_PRIMARY_LIMIT_WAIT_S;
  octokit.log.warn(
    `Rate limit on ${request.method} ${request.url}; ${retry ? `retrying in ${retryAfter} s` : "giving up"} (resets in ${retryAfter} s)`,
  );
  return retry;
}
