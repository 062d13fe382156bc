import { afterAll, beforeAll, beforeEach } from "vitest";
import type { FakeGitHub } from "../../../harness/fake-github/fake-github-server.js";
import { type FakeOAuthFlow, type FakeOAuthRepository, serveOAuthFlow } from "../../../harness/fake-github/serve-oauth-flow.js";
import { type SeededHistory, seedHistoryStore } from "../../../harness/seed-history-store.js";
import { silentLogger } from "../../../src/logger.js";
import { prepareDatabase } from "../../../src/store/prepare-database.js";
import { type TestDatabaseHandle, pgliteBackend } from "../database/database-backends.js";
import type { BotProcess } from "./start-bot-process.js";
import { useBotProcess } from "./use-bot-process.js";

export const PAGES_CLIENT_ID = "Iv1.speedgatepages";
export const PAGES_CLIENT_SECRET = "pages-client-secret";

export interface PagesRepository {
  owner: string;
  repo: string;
  private: boolean;
  readers: string[];
  /** Rounds of main to seed (with the example pull requests' cards); 0 seeds nothing. */
  mainRounds: number;
}

export interface PagesBot {
  fake: FakeGitHub;
  bot: () => BotProcess;
  /** What was seeded, by owner/repo (lower-cased). */
  seeded: () => Map<string, SeededHistory>;
  /** The OAuth flow GitHub plays in this test (served again before each test). */
  flow: () => FakeOAuthFlow;
}

/**
 * `npm run bot` with its history pages on (SPEEDGATE_PAGES_URL, the app's OAuth client) over a PGlite
 * folder seeded before it starts (seedHistoryStore: main's rounds and the example pull requests'
 * cards, through the store's own write functions), and a fake GitHub that plays the OAuth web flow and
 * the access checks for `repositories` before each test.
 */
export function usePagesBot(options: { repositories: PagesRepository[]; accessCacheMs?: number }): PagesBot {
  const env: Record<string, string> = {
    GITHUB_CLIENT_ID: PAGES_CLIENT_ID,
    GITHUB_CLIENT_SECRET: PAGES_CLIENT_SECRET,
    SPEEDGATE_PAGES_ACCESS_CACHE_MS: String(options.accessCacheMs ?? 60_000),
  };
  let handle: TestDatabaseHandle | null = null;
  const seeded = new Map<string, SeededHistory>();
  // Registered before the app's own hooks: the folder is seeded and closed before `npm run bot` opens it.
  beforeAll(async () => {
    handle = await pgliteBackend().create();
    const database = await handle.open();
    try {
      await prepareDatabase(database, silentLogger);
      for (const entry of options.repositories) {
        if (entry.mainRounds === 0) continue;
        const repository = `${entry.owner}/${entry.repo}`.toLowerCase();
        seeded.set(repository, await seedHistoryStore(database.pool, { repository, mainRounds: entry.mainRounds }));
      }
    } finally {
      await database.close();
    }
    if (handle.target.kind === "pglite") env.SPEEDGATE_DATA_DIR = handle.target.dataDir;
  });
  afterAll(async () => await handle?.destroy());
  const { fake, bot } = useBotProcess({ pages: true, env });
  let flow: FakeOAuthFlow | null = null;
  beforeEach(() => {
    const repositories: FakeOAuthRepository[] = options.repositories.map((entry) => ({
      owner: entry.owner,
      repo: entry.repo,
      private: entry.private,
      readers: new Set(entry.readers),
    }));
    flow = serveOAuthFlow(fake, {
      clientId: PAGES_CLIENT_ID,
      clientSecret: PAGES_CLIENT_SECRET,
      users: { alice: 501, bob: 502, mallory: 503 },
      repositories,
    });
    fake.on("POST", "/app/installations/{installation_id}/access_tokens", () => ({
      status: 201,
      body: { token: "ghs_fake", expires_at: "2099-01-01T00:00:00Z", permissions: {}, repository_selection: "all" },
    }));
  });
  return {
    fake,
    bot,
    seeded: () => seeded,
    flow: () => {
      if (!flow) throw new Error("the OAuth flow is served before each test");
      return flow;
    },
  };
}

/**
 * Signs `login` in through the app's pages as a browser would (following the redirects by hand, the
 * cookies kept): /auth/signin, GitHub's authorize page, the app's callback. Returns the session cookie.
 */
export async function signInOverHttp(bot: BotProcess, flow: FakeOAuthFlow, login: string, returnTo = "/"): Promise<string> {
  flow.signedInAs = login;
  const start = await fetch(`${bot.baseUrl}/auth/signin?return=${encodeURIComponent(returnTo)}`, { redirect: "manual" });
  const oauthCookie = (start.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  const authorize = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
  const callback = await fetch(authorize.headers.get("location") ?? "", { redirect: "manual", headers: { cookie: oauthCookie } });
  const session = callback.headers.getSetCookie().find((cookie) => cookie.startsWith("speedgate_session="));
  if (callback.status !== 302 || !session) throw new Error(`sign-in of ${login} failed: ${callback.status} ${await callback.text()}`);
  return session.split(";")[0] ?? "";
}
