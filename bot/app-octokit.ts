import { ProbotOctokit } from "probot";

/** Retries after a secondary rate limit before a delivery is given up (GitHub does not redeliver by itself). */
export const SECONDARY_LIMIT_RETRIES = 3;

interface ThrottledRequest {
  method: string;
  url: string;
}

interface LoggingOctokit {
  log: { warn: (message: string) => void };
}

/**
 * Probot's Octokit, except that a secondary rate limit is waited out and retried. Probot's own
 * throttle settings only log it, so a card hitting one on a busy installation would be lost. The
 * function form of defaults runs after Probot has set its throttle options, so this one wins.
 */
export const AppOctokit = ProbotOctokit.defaults((instanceOptions: Record<string, unknown>) => {
  const throttle = (instanceOptions.throttle ?? {}) as Record<string, unknown>;
  return {
    ...instanceOptions,
    throttle: {
      ...throttle,
      onSecondaryRateLimit: (retryAfter: number, request: ThrottledRequest, octokit: LoggingOctokit, retryCount: number): boolean => {
        const retry = retryCount < SECONDARY_LIMIT_RETRIES;
        octokit.log.warn(
          `Secondary rate limit on ${request.method} ${request.url}; ${retry ? `retrying in ${retryAfter} s` : "giving up"} (attempt ${retryCount + 1})`,
        );
        return retry;
      },
    },
  };
});
