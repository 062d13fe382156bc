import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { escapeHtml } from "../../src/history/escape-html.js";
import { APP_PAGE_LINKS } from "../../src/history/page-links.js";
import { readRepositoryPage, readRunnerPage } from "../../src/history/read-history-pages.js";
import { renderCardPage } from "../../src/history/render-card-page.js";
import { renderPageFrame } from "../../src/history/render-page-frame.js";
import { renderRepositoryPage } from "../../src/history/render-repository-page.js";
import { renderRunnerPage } from "../../src/history/render-runner-page.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import { readCardDocument } from "../../src/store/card-documents.js";
import type { Queryable } from "../../src/store/database.js";
import type { PagesSettings } from "../read-pages-settings.js";
import type { PageAsset } from "./read-page-assets.js";
import type { PageUser, RepositoryAccess } from "./repository-access.js";
import { openPageCookie, readCookies, sealPageCookie } from "./seal-page-cookie.js";

/*
 * The history pages (#42), served beside Probot's webhook route: GET and HEAD only, server-rendered HTML
 * with every figure in a table, the charts drawn by uPlot and one script, both served from here. The
 * Content-Security-Policy runs no inline script and loads nothing from elsewhere. A private
 * repository's pages need sign-in with GitHub (the app's OAuth client) and read access, checked per
 * request against GitHub and trusted for at most a minute (repository-access.ts).
 */

export const SESSION_COOKIE = "speedgate_session";
const OAUTH_COOKIE = "speedgate_oauth";
/** A sign-in lasts a working day; the access under it is asked again every minute anyway. */
const SESSION_MS = 8 * 3600_000;
const OAUTH_STATE_MS = 10 * 60_000;

export const PAGES_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'none'; " +
  "form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const OWNED = /^\/(repos|cards|static|auth)(\/|$)/;

export interface HistoryPagesOptions {
  settings: PagesSettings;
  /** The app's database once it is open; null while it opens. */
  database: () => Queryable | null;
  access: RepositoryAccess;
  /** GitHub's web origin (the OAuth pages) and its REST API's base URL. */
  github: { webUrl: string; apiUrl: string };
  assets: ReadonlyMap<string, PageAsset>;
  log: { warn: (message: string) => void };
  now?: () => number;
  /** fetch, for the OAuth code exchange and GET /user. */
  fetch?: typeof fetch;
}

interface Answer {
  status: number;
  body: string | Buffer;
  contentType?: string;
  headers?: Record<string, string | string[]>;
  /** A private repository's page: no shared cache may keep it. */
  private?: boolean;
}

function send(request: IncomingMessage, response: ServerResponse, answer: Answer): void {
  const headers: Record<string, string | string[]> = {
    "content-security-policy": PAGES_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": answer.private ? "private, no-store" : "no-cache",
    "content-type": answer.contentType ?? "text/html; charset=utf-8",
    ...answer.headers,
  };
  const body = typeof answer.body === "string" ? Buffer.from(answer.body) : answer.body;
  headers["content-length"] = String(body.byteLength);
  response.writeHead(answer.status, headers);
  response.end(request.method === "HEAD" ? undefined : body);
}

function messagePage(status: number, title: string, text: string, extra = ""): Answer {
  return {
    status,
    body: renderPageFrame({
      title: `speedgate: ${title}`,
      links: APP_PAGE_LINKS,
      repository: null,
      body: `<div class="signin"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${extra}</div>`,
      charts: false,
    }),
    private: true,
  };
}

function redirect(location: string, cookies: string[] = []): Answer {
  return { status: 302, body: "", headers: { location, ...(cookies.length > 0 ? { "set-cookie": cookies } : {}) }, private: true };
}

function cookie(settings: PagesSettings, name: string, value: string, maxAgeS: number): string {
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${settings.secureCookie ? "; Secure" : ""}`;
}

/** Only a path of this site: never another origin, nor a protocol-relative `//host`. */
function safeReturn(value: string | null): string {
  return value && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : "/";
}

function readUser(value: unknown): PageUser | null {
  if (typeof value !== "object" || value === null) return null;
  const { id, login, token } = value as Record<string, unknown>;
  return typeof id === "number" && typeof login === "string" && typeof token === "string" ? { id, login, token } : null;
}

/** Probot's handler for the pages: answers the paths it owns (/repos, /cards, /static, /auth) and leaves the rest. */
export function serveHistoryPages(options: HistoryPagesOptions): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  const now = options.now ?? Date.now;
  const fetcher = options.fetch ?? fetch;
  const { settings } = options;

  const sessionOf = (request: IncomingMessage): PageUser | null => {
    const sealed = readCookies(request.headers.cookie).get(SESSION_COOKIE);
    return sealed ? readUser(openPageCookie(settings.sessionKey, sealed, now())) : null;
  };

  /** Null when the visitor may read the repository's pages; otherwise what to answer instead. */
  const guard = async (
    request: IncomingMessage,
    owner: string,
    repo: string,
    refusal: "forbidden" | "not-found",
  ): Promise<{ refused: Answer } | { private: boolean }> => {
    const visibility = await options.access.visibility(owner, repo);
    const notFound = messagePage(404, "Not found", "There is no such page, or it is not yours to see.");
    if (visibility === "absent") return { refused: notFound };
    if (visibility === "public") return { private: false };
    const user = sessionOf(request);
    const signIn = `/auth/signin?return=${encodeURIComponent(request.url ?? "/")}`;
    if (!user) return { refused: redirect(signIn) };
    const access = await options.access.userAccess(user, owner, repo);
    if (access === "expired") return { refused: redirect(signIn, [cookie(settings, SESSION_COOKIE, "", 0)]) };
    if (access === "read") return { private: true };
    if (refusal === "not-found") return { refused: notFound };
    return {
      refused: messagePage(
        403,
        "No access",
        `${user.login} cannot read ${owner}/${repo} on GitHub, so its pages are not shown. Access is checked again every minute.`,
        `<p><a href="/auth/signout">Sign out</a></p>`,
      ),
    };
  };

  const repositoryPage = async (request: IncomingMessage, owner: string, repo: string, runners: boolean): Promise<Answer> => {
    const allowed = await guard(request, owner, repo, "forbidden");
    if ("refused" in allowed) return allowed.refused;
    const database = options.database();
    if (!database) return messagePage(503, "Starting", "The app is opening its database; try again in a few seconds.");
    const repository = `${owner}/${repo}`;
    const body = runners
      ? renderRunnerPage(await readRunnerPage(database, repository), APP_PAGE_LINKS)
      : renderRepositoryPage(await readRepositoryPage(database, repository), APP_PAGE_LINKS);
    return { status: 200, body, private: allowed.private };
  };

  const cardPage = async (request: IncomingMessage, id: string, json: boolean): Promise<Answer> => {
    const database = options.database();
    if (!database) return messagePage(503, "Starting", "The app is opening its database; try again in a few seconds.");
    const document = await readCardDocument(database, id);
    if (!document) return messagePage(404, "Not found", "There is no such page, or it is not yours to see.");
    const [owner = "", repo = ""] = document.repository.split("/");
    // Another repository's card is answered as if it did not exist: its id tells nothing.
    const allowed = await guard(request, owner, repo, "not-found");
    if ("refused" in allowed) return allowed.refused;
    if (json) return { status: 200, body: document.cardJson, contentType: "application/json; charset=utf-8", private: allowed.private };
    const card = parseScorecardJson(document.cardJson, `card ${id}`);
    return { status: 200, body: renderCardPage({ ...document, card, links: APP_PAGE_LINKS }), private: allowed.private };
  };

  const signIn = (url: URL): Answer => {
    if (!settings.oauth) {
      return messagePage(
        503,
        "Sign-in is not set up",
        "This app has no OAuth client (GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET), so private repositories' pages cannot be shown.",
      );
    }
    const state = randomBytes(16).toString("base64url");
    const returnTo = safeReturn(url.searchParams.get("return"));
    const authorize = new URL(`${options.github.webUrl}/login/oauth/authorize`);
    authorize.searchParams.set("client_id", settings.oauth.clientId);
    authorize.searchParams.set("redirect_uri", `${settings.baseUrl}/auth/callback`);
    authorize.searchParams.set("state", state);
    const sealed = sealPageCookie(settings.sessionKey, { state, returnTo }, now() + OAUTH_STATE_MS);
    return redirect(authorize.href, [cookie(settings, OAUTH_COOKIE, sealed, OAUTH_STATE_MS / 1000)]);
  };

  const callback = async (request: IncomingMessage, url: URL): Promise<Answer> => {
    const oauth = settings.oauth;
    if (!oauth) return signIn(url);
    const sealed = readCookies(request.headers.cookie).get(OAUTH_COOKIE);
    const pending = sealed ? openPageCookie(settings.sessionKey, sealed, now()) : null;
    const { state, returnTo } = (pending ?? {}) as { state?: unknown; returnTo?: unknown };
    const code = url.searchParams.get("code");
    if (typeof state !== "string" || state !== url.searchParams.get("state") || !code) {
      return messagePage(
        400,
        "Sign-in failed",
        "The sign-in did not start here or took too long; sign in again.",
        `<p><a href="/auth/signin">Sign in</a></p>`,
      );
    }
    const exchange = await fetcher(`${options.github.webUrl}/login/oauth/access_token`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({
        client_id: oauth.clientId,
        client_secret: oauth.clientSecret,
        code,
        redirect_uri: `${settings.baseUrl}/auth/callback`,
      }),
    });
    const token = exchange.ok ? ((await exchange.json()) as { access_token?: unknown }).access_token : undefined;
    if (typeof token !== "string" || token === "") {
      options.log.warn(`pages: GitHub refused the sign-in's code exchange (HTTP ${exchange.status})`);
      return messagePage(
        400,
        "Sign-in failed",
        "GitHub did not accept the sign-in; sign in again.",
        `<p><a href="/auth/signin">Sign in</a></p>`,
      );
    }
    const userResponse = await fetcher(`${options.github.apiUrl}/user`, {
      headers: { accept: "application/vnd.github+json", authorization: `Bearer ${token}`, "user-agent": "speedgate-pages" },
    });
    const user = userResponse.ok ? ((await userResponse.json()) as { id?: unknown; login?: unknown }) : {};
    if (typeof user.id !== "number" || typeof user.login !== "string") {
      return messagePage(
        400,
        "Sign-in failed",
        "GitHub did not say who signed in; sign in again.",
        `<p><a href="/auth/signin">Sign in</a></p>`,
      );
    }
    const session = sealPageCookie(settings.sessionKey, { id: user.id, login: user.login, token }, now() + SESSION_MS);
    return redirect(safeReturn(typeof returnTo === "string" ? returnTo : null), [
      cookie(settings, SESSION_COOKIE, session, SESSION_MS / 1000),
      cookie(settings, OAUTH_COOKIE, "", 0),
    ]);
  };

  const route = async (request: IncomingMessage, url: URL): Promise<Answer | null> => {
    const parts = url.pathname.split("/").slice(1);
    const [area, first, second, third] = parts;
    if (area === "static" && first && parts.length === 2) {
      const asset = options.assets.get(first);
      if (!asset) return null;
      return { status: 200, body: asset.body, contentType: asset.contentType, headers: { "cache-control": "public, max-age=3600" } };
    }
    if (area === "repos" && first && second && NAME.test(first) && NAME.test(second)) {
      if (parts.length === 3) return await repositoryPage(request, first, second, false);
      if (parts.length === 4 && third === "runners") return await repositoryPage(request, first, second, true);
      return null;
    }
    if (area === "cards" && first && parts.length === 2) {
      const json = first.endsWith(".json");
      return await cardPage(request, json ? first.slice(0, -".json".length) : first, json);
    }
    if (area === "auth" && parts.length === 2) {
      if (first === "signin") return signIn(url);
      if (first === "callback") return await callback(request, url);
      if (first === "signout") return redirect("/", [cookie(settings, SESSION_COOKIE, "", 0)]);
    }
    return null;
  };

  return async (request, response) => {
    const url = new URL(request.url ?? "/", "http://pages.invalid");
    if (!OWNED.test(url.pathname)) return false;
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(request, response, {
        ...messagePage(405, "Method not allowed", "These pages are read-only: GET only."),
        headers: { allow: "GET, HEAD" },
      });
      return true;
    }
    try {
      const answer = (await route(request, url)) ?? messagePage(404, "Not found", "There is no such page, or it is not yours to see.");
      send(request, response, answer);
    } catch (error) {
      options.log.warn(`pages: ${request.method} ${url.pathname} failed: ${(error as Error).message}`);
      if (!response.headersSent)
        send(
          request,
          response,
          messagePage(503, "Unavailable", "The page could not be made just now (GitHub or the database did not answer); try again."),
        );
    }
    return true;
  };
}
