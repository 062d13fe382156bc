import type { GitHubClient, RepoRef } from "../src/github/github-client.js";
import { CHECK_NAME } from "../src/github/publish-check-run.js";
import { describeUnpinnedCheck, readRequiredCheckSources } from "../src/github/read-required-check-sources.js";

/** How long one reading of a repository's required checks is trusted: two API calls per repository per hour. */
export const REQUIRED_CHECK_MEMO_MS = 60 * 60_000;

/** The deployment guide's section on pinning the check, next to the troubleshooting pages the app links. */
export function requiredCheckDocsUrl(docsBaseUrl: string): string {
  return new URL("../deploying-the-app.md#require-the-speedgate-check-pinned-to-the-app", docsBaseUrl).href;
}

interface Log {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Whether the `speedgate` check the app concludes is what branch protection counts, read from the
 * default branch's protection and rulesets (src/github/read-required-check-sources.ts) and said on the
 * check it publishes when it is not. Advisory: a failure to read is logged and says nothing, and never
 * holds a card back. Kept per process for an hour per repository.
 */
export class UnpinnedCheckWarnings {
  readonly #memo = new Map<string, { until: number; warning: string | null }>();

  constructor(private readonly now: () => number = Date.now) {}

  async warningFor(
    client: GitHubClient,
    repo: RepoRef & { branch: string; appId: number; docsUrl: string },
    log: Log,
  ): Promise<string | null> {
    const key = `${repo.owner}/${repo.repo}:${repo.branch}`.toLowerCase();
    const known = this.#memo.get(key);
    if (known && known.until > this.now()) return known.warning;
    let warning: string | null = null;
    try {
      const sources = await readRequiredCheckSources(client, { owner: repo.owner, repo: repo.repo, branch: repo.branch, name: CHECK_NAME });
      warning = describeUnpinnedCheck(sources, { appId: repo.appId, branch: repo.branch, name: CHECK_NAME, docsUrl: repo.docsUrl });
    } catch (error) {
      log.warn(
        { repository: key },
        `could not read which source the required ${CHECK_NAME} check of ${key} expects: ${(error as Error).message}`,
      );
    }
    this.#memo.set(key, { until: this.now() + REQUIRED_CHECK_MEMO_MS, warning });
    if (warning) log.warn({ repository: key }, warning);
    return warning;
  }
}
