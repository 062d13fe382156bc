import { type GitHubClient, type RepoRef, statusOf } from "./github-client.js";

/*
 * Branch protection can require a check by name alone, and then any source satisfies it: a pull
 * request's own workflow can post a check run or a commit status named `speedgate` and merge. Pinned
 * to the app, only the app's check counts. Both places GitHub keeps the requirement say which source
 * it expects, and both are readable with the app's read permissions (issue #24 point 5):
 * - branch protection: `GET /repos/{owner}/{repo}/branches/{branch}`, its `protection.required_status_checks.checks[]`,
 *   each `{ context, app_id }` (null: any source; the legacy `contexts` list never names one);
 * - rulesets: `GET /repos/{owner}/{repo}/rules/branches/{branch}`, each active `required_status_checks` rule's
 *   `parameters.required_status_checks[]`, each `{ context, integration_id }` (absent: any source).
 */

export interface RequiredCheckSource {
  where: "branch protection" | "ruleset";
  /** The app the check must come from; null when any source satisfies it. */
  appId: number | null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
}

function fromProtection(data: unknown, name: string): RequiredCheckSource[] {
  const checks = record(record(record(data)?.protection)?.required_status_checks);
  if (!checks) return [];
  const listed = Array.isArray(checks.checks) ? checks.checks.map(record).filter((check) => check?.context === name) : [];
  if (listed.length > 0)
    return listed.map((check) => ({ where: "branch protection", appId: typeof check?.app_id === "number" ? check.app_id : null }));
  const contexts = Array.isArray(checks.contexts) ? checks.contexts : [];
  return contexts.includes(name) ? [{ where: "branch protection", appId: null }] : [];
}

function fromRules(data: unknown, name: string): RequiredCheckSource[] {
  const rules = Array.isArray(data) ? data.map(record) : [];
  return rules
    .filter((rule) => rule?.type === "required_status_checks")
    .flatMap((rule) => {
      const required = record(rule?.parameters)?.required_status_checks;
      return Array.isArray(required) ? required.map(record).filter((check) => check?.context === name) : [];
    })
    .map((check) => ({ where: "ruleset", appId: typeof check?.integration_id === "number" ? check.integration_id : null }));
}

/** Reads one of the two; a 403 or 404 (no protection, a plan without rulesets, an older GitHub Enterprise) is none. */
async function readOrNone(read: () => Promise<unknown>): Promise<unknown> {
  try {
    return await read();
  } catch (error) {
    const status = statusOf(error);
    if (status === 403 || status === 404) return null;
    throw error;
  }
}

/** Every requirement of the check `name` on `branch`, with the source each expects. */
export async function readRequiredCheckSources(
  client: GitHubClient,
  options: RepoRef & { branch: string; name: string },
): Promise<RequiredCheckSource[]> {
  const { owner, repo, branch, name } = options;
  const branchData = await readOrNone(
    async () => (await client.request("GET /repos/{owner}/{repo}/branches/{branch}", { owner, repo, branch })).data,
  );
  const rulesData = await readOrNone(
    async () => (await client.request("GET /repos/{owner}/{repo}/rules/branches/{branch}", { owner, repo, branch, per_page: 100 })).data,
  );
  return [...fromProtection(branchData, name), ...fromRules(rulesData, name)];
}

/** What to tell the repository when a requirement of the check does not name this app as its source, else null. */
export function describeUnpinnedCheck(
  sources: readonly RequiredCheckSource[],
  options: { appId: number; branch: string; name: string; docsUrl: string },
): string | null {
  const unpinned = sources.filter((source) => source.appId !== options.appId);
  if (unpinned.length === 0) return null;
  const where = [...new Set(unpinned.map((source) => source.where))].join(" and ");
  const other = unpinned.find((source) => source.appId !== null);
  const source = other ? `from another app (id ${other.appId}), not from this one (id ${options.appId})` : "from any source";
  return (
    `⚠️ The ${where} of \`${options.branch}\` requires the \`${options.name}\` check ${source}: a pull request's own workflow can ` +
    `post a check ` +
    `or a status named \`${options.name}\` and satisfy it. Set the required check's source to this app ` +
    `(${options.docsUrl}).`
  );
}
