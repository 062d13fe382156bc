import { getOctokit } from "@actions/github";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import type { GitHubClient } from "../src/github/github-client.js";
import { onPrimaryRateLimit, onSecondaryRateLimit } from "../src/github/rate-limit-policy.js";

/**
 * The action's GitHub client: getOctokit with plugin-retry (5xx answers are retried) and
 * plugin-throttling (rate limits waited out, with the app's policy), so one 500 or 429 does not
 * lose the card comment. `baseUrl` defaults to GITHUB_API_URL, as getOctokit does.
 */
export function createActionOctokit(token: string, options: { baseUrl?: string } = {}): GitHubClient {
  return getOctokit(token, { ...options, throttle: { onRateLimit: onPrimaryRateLimit, onSecondaryRateLimit } }, retry, throttling);
}
