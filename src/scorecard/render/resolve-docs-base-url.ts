import { docsBaseUrlSchema } from "../scorecard-schema.js";

/**
 * Where the card's troubleshooting links point. SPEEDGATE_DOCS_URL when set (a fork, GitHub
 * Enterprise, a mirror); else, inside the GitHub Action, speedgate's own repository at the ref the
 * workflow used (GITHUB_ACTION_REPOSITORY and GITHUB_ACTION_REF), so the page matches the scorer that
 * wrote the card; else null, and the card names the page without a link rather than a link that
 * would resolve against the pull request.
 */
export function resolveDocsBaseUrl(env: NodeJS.ProcessEnv): string | null {
  const explicit = env.SPEEDGATE_DOCS_URL?.trim();
  if (explicit) {
    const withSlash = explicit.endsWith("/") ? explicit : `${explicit}/`;
    return docsBaseUrlSchema.safeParse(withSlash).success ? withSlash : null;
  }
  const repository = env.GITHUB_ACTION_REPOSITORY?.trim();
  const ref = env.GITHUB_ACTION_REF?.trim();
  if (!repository || !ref || !/^[\w.-]+\/[\w.-]+$/.test(repository) || !/^[\w./-]+$/.test(ref)) return null;
  const server = (env.GITHUB_SERVER_URL?.trim() || "https://github.com").replace(/\/+$/, "");
  const url = `${server}/${repository}/blob/${ref}/docs/troubleshooting/`;
  return docsBaseUrlSchema.safeParse(url).success ? url : null;
}
