import { randomBytes } from "node:crypto";
import type { FakeGitHub, FakeRequest, FakeResponse } from "./fake-github-server.js";

/*
 * GitHub's side of the history pages' access rules, as GitHub plays it: the OAuth web flow of a GitHub
 * App's client (GET /login/oauth/authorize sends the browser back to the redirect URI with a one-time
 * code and the state it was given, once the user is signed in to GitHub; POST /login/oauth/access_token
 * trades the code, with the client's secret, for a user-to-server token), GET /user for the token's
 * user, and GET /repos/{owner}/{repo}: with the app's installation token it answers any repository the
 * app is installed on, with a user's token only one that user may read (404 otherwise, as GitHub hides
 * a private repository). The REST calls go through the fake's check against GitHub's OpenAPI description.
 */

export interface FakeOAuthRepository {
  owner: string;
  repo: string;
  private: boolean;
  /** The logins that may read it (a private repository's collaborators). */
  readers: Set<string>;
}

export interface FakeOAuthFlow {
  /** Who is signed in to GitHub in the browser; null: the authorize page asks to sign in. */
  signedInAs: string | null;
  readonly users: Map<string, { id: number }>;
  readonly repositories: FakeOAuthRepository[];
  /** The user-to-server tokens issued, by token. */
  readonly tokens: Map<string, string>;
}

export const FAKE_INSTALLATION_ID = 77;

function bearer(request: FakeRequest): string {
  const header = request.headers.authorization ?? "";
  return header.replace(/^(bearer|token)\s+/i, "");
}

/** Serves the OAuth flow and the access routes for `clientId`; the returned state is the test's to change (revoke a reader). */
export function serveOAuthFlow(
  fake: FakeGitHub,
  options: {
    clientId: string;
    clientSecret: string;
    users: Record<string, number>;
    repositories: FakeOAuthRepository[];
    /** The app's installation token (serveRepository's "app" group issues ghs_fake). */
    installationToken?: string;
  },
): FakeOAuthFlow {
  const installationToken = options.installationToken ?? "ghs_fake";
  const flow: FakeOAuthFlow = {
    signedInAs: null,
    users: new Map(Object.entries(options.users).map(([login, id]) => [login, { id }])),
    repositories: options.repositories,
    tokens: new Map(),
  };
  const codes = new Map<string, { login: string; redirectUri: string }>();
  const find = (owner: string, repo: string): FakeOAuthRepository | undefined =>
    flow.repositories.find((entry) => `${entry.owner}/${entry.repo}`.toLowerCase() === `${owner}/${repo}`.toLowerCase());

  fake.onWeb("GET", "/login/oauth/authorize", (request): FakeResponse => {
    const redirectUri = request.query.get("redirect_uri");
    const state = request.query.get("state");
    if (request.query.get("client_id") !== options.clientId || !redirectUri || !state)
      return { status: 400, body: "authorize: an unknown client_id, or no redirect_uri or state" };
    if (flow.signedInAs === null)
      return {
        status: 200,
        body:
          '<!doctype html><link rel="icon" href="data:,"><title>Sign in to GitHub</title>' +
          '<h1 id="github-sign-in">Sign in to GitHub</h1>',
        headers: { "content-type": "text/html; charset=utf-8" },
      };
    const code = randomBytes(10).toString("hex");
    codes.set(code, { login: flow.signedInAs, redirectUri });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", state);
    return { status: 302, headers: { location: back.href } };
  });

  fake.onWeb("POST", "/login/oauth/access_token", (request): FakeResponse => {
    const code = request.form.get("code") ?? "";
    const issued = codes.get(code);
    codes.delete(code);
    if (request.form.get("client_id") !== options.clientId || request.form.get("client_secret") !== options.clientSecret)
      return { status: 200, body: { error: "incorrect_client_credentials" } };
    const redirectUri = request.form.get("redirect_uri");
    if (!issued || (redirectUri && redirectUri !== issued.redirectUri))
      return { status: 200, body: { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." } };
    const token = `ghu_${randomBytes(18).toString("base64url")}`;
    flow.tokens.set(token, issued.login);
    return { status: 200, body: { access_token: token, token_type: "bearer", scope: "", expires_in: 28_800 } };
  });

  fake.on("GET", "/user", (request): FakeResponse => {
    const login = flow.tokens.get(bearer(request));
    const user = login ? flow.users.get(login) : undefined;
    if (!login || !user) return { status: 401, body: { message: "Bad credentials" } };
    return { status: 200, body: { login, id: user.id, type: "User" } };
  });

  fake.on("GET", "/repos/{owner}/{repo}/installation", (request): FakeResponse => {
    const entry = find(request.pathParams.owner ?? "", request.pathParams.repo ?? "");
    return entry ? { status: 200, body: { id: FAKE_INSTALLATION_ID, app_id: 4242 } } : { status: 404, body: { message: "Not Found" } };
  });

  fake.on("GET", "/repos/{owner}/{repo}", (request): FakeResponse => {
    const entry = find(request.pathParams.owner ?? "", request.pathParams.repo ?? "");
    const token = bearer(request);
    const body = (pull: boolean) => ({
      full_name: `${entry?.owner}/${entry?.repo}`,
      private: entry?.private,
      visibility: entry?.private ? "private" : "public",
      permissions: { pull, push: false, admin: false },
    });
    if (!entry) return { status: 404, body: { message: "Not Found" } };
    if (token === installationToken) return { status: 200, body: body(true) };
    const login = flow.tokens.get(token);
    if (!login) return { status: 401, body: { message: "Bad credentials" } };
    if (!entry.private || entry.readers.has(login)) return { status: 200, body: body(true) };
    return { status: 404, body: { message: "Not Found" } };
  });
  return flow;
}
