import { ProbotOctokit } from "probot";
import { onSecondaryRateLimit } from "../src/github/rate-limit-policy.js";

export { SECONDARY_LIMIT_RETRIES } from "../src/github/rate-limit-policy.js";

/**
 * Probot's Octokit, except that a secondary rate limit is waited out and retried (the policy the
 * action shares, src/github/rate-limit-policy.ts). Probot's own throttle settings only log it, so a
 * card hitting one on a busy installation would be lost. The function form of defaults runs after
 * Probot has set its throttle options, so this one wins.
 */
export const AppOctokit = ProbotOctokit.defaults((instanceOptions: Record<string, unknown>) => {
  const throttle = (instanceOptions.throttle ?? {}) as Record<string, unknown>;
  return { ...instanceOptions, throttle: { ...throttle, onSecondaryRateLimit } };
});
