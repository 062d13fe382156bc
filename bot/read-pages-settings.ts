import { createHash } from "node:crypto";

/*
 * The history pages (#42) are on when SPEEDGATE_PAGES_URL names where the app is reached from a browser
 * (https://speedgate.example.com): the card links and the OAuth callback are made from it. A private
 * repository's pages need sign-in with GitHub through the app's own OAuth client: GITHUB_CLIENT_ID and
 * GITHUB_CLIENT_SECRET (Probot's manifest flow writes both into .env). Without them every private
 * repository's page is refused, never shown. The session cookie is sealed with a key derived from
 * SPEEDGATE_SESSION_SECRET, or from the webhook secret when it is not set.
 */

export interface PagesSettings {
  /** The pages' origin and path prefix as a browser reaches them, without a trailing slash. */
  baseUrl: string;
  oauth: { clientId: string; clientSecret: string } | null;
  /** 32 bytes: the AES-256-GCM key of the session cookie. */
  sessionKey: Buffer;
  /** How long a user's read access to a repository (and a repository's visibility) is trusted before GitHub is asked again. */
  accessCacheMs: number;
  /** Whether the session cookie is sent over https only (the base URL is https). */
  secureCookie: boolean;
}

export const DEFAULT_ACCESS_CACHE_MS = 60_000;

/** The pages' settings, or null when SPEEDGATE_PAGES_URL is not set (no pages, no card links). */
export function readPagesSettings(env: NodeJS.ProcessEnv): PagesSettings | null {
  const raw = env.SPEEDGATE_PAGES_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SPEEDGATE_PAGES_URL: expected the absolute http(s) URL the app's pages are reached at, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`SPEEDGATE_PAGES_URL: expected an http or https URL, got ${JSON.stringify(raw)}`);
  if (url.search || url.hash) throw new Error(`SPEEDGATE_PAGES_URL: expected no query or fragment, got ${JSON.stringify(raw)}`);
  const clientId = env.GITHUB_CLIENT_ID?.trim();
  const clientSecret = env.GITHUB_CLIENT_SECRET?.trim();
  const secret = env.SPEEDGATE_SESSION_SECRET?.trim() || env.WEBHOOK_SECRET?.trim();
  if (!secret) throw new Error("SPEEDGATE_SESSION_SECRET (or WEBHOOK_SECRET): needed to seal the pages' sign-in cookie");
  const cacheRaw = env.SPEEDGATE_PAGES_ACCESS_CACHE_MS?.trim();
  const accessCacheMs = cacheRaw ? Number(cacheRaw) : DEFAULT_ACCESS_CACHE_MS;
  if (!Number.isInteger(accessCacheMs) || accessCacheMs < 0 || accessCacheMs > DEFAULT_ACCESS_CACHE_MS)
    throw new Error(`SPEEDGATE_PAGES_ACCESS_CACHE_MS: expected whole milliseconds from 0 to 60000, got ${JSON.stringify(cacheRaw)}`);
  return {
    baseUrl: url.href.replace(/\/+$/, ""),
    oauth: clientId && clientSecret ? { clientId, clientSecret } : null,
    sessionKey: createHash("sha256").update(`speedgate pages session\0${secret}`).digest(),
    accessCacheMs,
    secureCookie: url.protocol === "https:",
  };
}

/** A card page's URL. */
export function cardPageUrl(settings: { baseUrl: string }, cardId: string): string {
  return `${settings.baseUrl}/cards/${cardId}`;
}
