import { docsBaseUrlSchema } from "../src/scorecard/scorecard-schema.js";
import { SPEEDGATE_VERSION } from "../src/version.js";

/** speedgate's own troubleshooting pages at the app's version (app.yml's url). */
export const DEFAULT_APP_DOCS_URL = `https://github.com/speedgate/speedgate/blob/v${SPEEDGATE_VERSION}/docs/troubleshooting/`;

/**
 * Where the cards the app posts link their troubleshooting pages: SPEEDGATE_DOCS_URL (a fork, GitHub
 * Enterprise, a mirror), else speedgate's own at the app's version. Never the artifact's docsBaseUrl:
 * the candidate's workflow writes that field. A wrong setting stops the app at start, naming it.
 */
export function resolveAppDocsUrl(env: NodeJS.ProcessEnv): string {
  const explicit = env.SPEEDGATE_DOCS_URL?.trim();
  if (!explicit) return DEFAULT_APP_DOCS_URL;
  const withSlash = explicit.endsWith("/") ? explicit : `${explicit}/`;
  if (!docsBaseUrlSchema.safeParse(withSlash).success) {
    throw new Error(`SPEEDGATE_DOCS_URL: expected an https URL ending in /docs/troubleshooting/, got ${JSON.stringify(explicit)}`);
  }
  return withSlash;
}
