import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { sealPageCookie } from "../../bot/pages/seal-page-cookie.js";
import { formatTimes } from "../../src/scoring/format-speedup.js";
import { signInOverHttp, usePagesBot } from "../support/fake-github/use-pages-bot.js";

/*
 * Issue #42 over HTTP against `npm run bot` with its pages on: each posted card's page is linked from
 * the comment and is the check run's details URL, and holds the whole card (what the comment cuts too);
 * the pages answer GET and HEAD only, under a Content-Security-Policy that runs no inline script; a
 * private repository's pages need sign-in with GitHub (the fake plays the OAuth web flow) and read
 * access, and hold against a forged cookie, another repository's card id and a user whose access was
 * removed (refused once the access cache's time has passed: 1.5 s here, a minute by default).
 */

const ACCESS_CACHE_MS = 1_500;
const CARD_LINK = /\[The whole card\]\((http:\/\/127\.0\.0\.1:\d+\/cards\/([A-Za-z0-9_-]{22}))\)/;

describe("the history pages over HTTP (`npm run bot` with SPEEDGATE_PAGES_URL)", () => {
  const { fake, bot, seeded, flow } = usePagesBot({
    accessCacheMs: ACCESS_CACHE_MS,
    repositories: [
      { owner: OWNER, repo: REPO, private: false, readers: [], mainRounds: 0 },
      { owner: "acme", repo: "secret", private: true, readers: ["alice"], mainRounds: 6 },
      { owner: "acme", repo: "other", private: true, readers: ["bob"], mainRounds: 4 },
    ],
  });
  const get = async (path: string, cookie?: string, method = "GET"): Promise<Response> =>
    await fetch(`${bot().baseUrl}${path}`, { method, redirect: "manual", ...(cookie ? { headers: { cookie } } : {}) });

  it("links a posted card's page from its comment and its check run; the page holds what the comment cut", async () => {
    const pull: FakePull = { number: 42, headSha: "c4".repeat(20), headRepo: `${OWNER}/${REPO}`, headBranch: "pages", author: "writer" };
    // 1,500 prompts: the comment keeps its first rows only, within GitHub's limit.
    const card = makeTestScorecard({ scores: Array.from({ length: 1_500 }, (_, index) => 1.05 + (index % 40) / 200) });
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot().appId, pulls: [pull], artifacts: { 8101: zipScorecard(card) } });
    const run = workflowRunCompleted({ id: 8101, headSha: pull.headSha, headBranch: pull.headBranch });
    expect(await deliverAndSettle(bot(), "workflow_run", run)).toBe(200);

    const comment = fake.comments[0]?.body ?? "";
    const link = CARD_LINK.exec(comment);
    expect(link, comment.slice(0, 600)).not.toBeNull();
    const url = link?.[1] ?? "";
    expect(url.startsWith(bot().baseUrl)).toBe(true);
    expect(fake.checkRuns.at(-1)?.detailsUrl).toBe(url);
    expect(comment).not.toContain("p1499");

    const page = await fetch(url);
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const html = await page.text();
    const json = await (await fetch(`${url}.json`)).json();
    const stored = json as { roundScore: number; prompts: { id: string }[] };
    expect(stored.prompts).toHaveLength(1_500);
    expect(html).toContain(`data-figure="round-score">${formatTimes(stored.roundScore)}<`);
    expect(html).toContain("p1499");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>(?!\s*<\/script>)/);
  });

  it("answers GET and HEAD only", async () => {
    const cardId = seeded().get("acme/secret")?.pulls.get("passing-round")?.cardId ?? "";
    for (const [method, path] of [
      ["POST", "/repos/acme/secret"],
      ["PUT", `/cards/${cardId}`],
      ["DELETE", "/auth/signout"],
      ["POST", "/auth/callback?code=x&state=y"],
    ] as const) {
      const response = await get(path, undefined, method);
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
    }
    const head = await get(`/repos/${OWNER}/${REPO}`, undefined, "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("sends a signed-out visitor of a private repository to sign in, and takes a forged cookie for none", async () => {
    const secret = seeded().get("acme/secret");
    const cardId = secret?.pulls.get("passing-round")?.cardId ?? "";
    const signIn = (path: string) => `/auth/signin?return=${encodeURIComponent(path)}`;
    for (const path of ["/repos/acme/secret", "/repos/acme/secret/runners", `/cards/${cardId}`, `/cards/${cardId}.json`]) {
      const response = await get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location")).toBe(signIn(path));
    }
    // The sign-in goes to GitHub's authorize page for the app's client, which comes back to the app's callback.
    const start = await get(signIn("/repos/acme/secret"));
    const authorize = new URL(start.headers.get("location") ?? "");
    expect(authorize.origin + authorize.pathname).toBe(`${fake.url}/login/oauth/authorize`);
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${bot().baseUrl}/auth/callback`);

    const forged = [
      // What a session holds, unsealed.
      `speedgate_session=${Buffer.from(JSON.stringify({ value: { id: 501, login: "alice", token: "ghu_x" }, expiresAt: 9e12 })).toString(
        "base64url",
      )}`,
      // Sealed, but with another key than the app's.
      `speedgate_session=${sealPageCookie(randomBytes(32), { id: 501, login: "alice", token: "ghu_x" }, Date.now() + 60_000)}`,
    ];
    for (const cookie of forged) {
      const response = await get("/repos/acme/secret", cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(signIn("/repos/acme/secret"));
    }
    // A real session with one byte changed.
    const session = await signInOverHttp(bot(), flow(), "alice");
    const tampered = session.slice(0, -3) + (session.at(-3) === "A" ? "B" : "A") + session.slice(-2);
    expect((await get("/repos/acme/secret", tampered)).status).toBe(302);
    const page = await get("/repos/acme/secret", session);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(await page.text()).toContain(`${secret?.mainRounds.length} drift rounds`);
  });

  it("refuses a callback it did not start, and sends a signed-in user back only to one of its own paths", async () => {
    flow().signedInAs = "alice";
    // GitHub's answer to a sign-in started elsewhere: a code and a state, but not this browser's state cookie.
    const start = await get("/auth/signin?return=/repos/acme/secret");
    const authorize = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
    const foreign = await get(
      new URL(authorize.headers.get("location") ?? "").pathname + new URL(authorize.headers.get("location") ?? "").search,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.getSetCookie().some((cookie) => cookie.startsWith("speedgate_session="))).toBe(false);
    for (const target of ["//attacker.example/x", "https://attacker.example/", "/\\attacker.example"]) {
      const begin = await get(`/auth/signin?return=${encodeURIComponent(target)}`);
      const cookie = (begin.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
      const back = await fetch((await fetch(begin.headers.get("location") ?? "", { redirect: "manual" })).headers.get("location") ?? "", {
        redirect: "manual",
        headers: { cookie },
      });
      expect(back.status).toBe(302);
      expect(back.headers.get("location"), target).toBe("/");
    }
  });

  it("refuses a signed-in user without read access, and another repository's card by its id", async () => {
    const other = seeded().get("acme/other")?.pulls.get("passing-round")?.cardId ?? "";
    const secret = seeded().get("acme/secret")?.pulls.get("passing-round")?.cardId ?? "";
    const bob = await signInOverHttp(bot(), flow(), "bob");
    const refused = await get("/repos/acme/secret", bob);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("bob cannot read acme/secret");
    expect((await get(`/cards/${secret}`, bob)).status).toBe(404);
    expect((await get(`/cards/${secret}.json`, bob)).status).toBe(404);
    expect((await get(`/cards/${other}`, bob)).status).toBe(200);
    const alice = await signInOverHttp(bot(), flow(), "alice");
    expect((await get(`/cards/${secret}`, alice)).status).toBe(200);
    // Alice reads acme/secret, not acme/other: its card, by a real id, is no more there for her than a made-up one.
    const otherCard = await get(`/cards/${other}`, alice);
    expect(otherCard.status).toBe(404);
    expect(await otherCard.text()).not.toContain("acme/other");
    expect((await get(`/cards/${"A".repeat(22)}`, alice)).status).toBe(404);
  });

  it("refuses a user whose access was removed once the access cache's time is up, when GitHub is asked again", async () => {
    const alice = await signInOverHttp(bot(), flow(), "alice");
    expect((await get("/repos/acme/secret", alice)).status).toBe(200);
    const checks = (): number =>
      fake.calls("GET", "/repos/{owner}/{repo}").filter((call) => call.path.toLowerCase() === "/repos/acme/secret").length;
    const before = checks();
    flow()
      .repositories.find((entry) => entry.repo === "secret")
      ?.readers.delete("alice");
    const removedAt = Date.now();
    // Within the cache's time the answer is GitHub's last one; it is asked again after it.
    while (Date.now() - removedAt < ACCESS_CACHE_MS) {
      const status = (await get("/repos/acme/secret", alice)).status;
      if (status === 403) break;
      expect(status).toBe(200);
    }
    // What is awaited here is the cache's time itself: once it has passed, the next request asks GitHub again.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, removedAt + ACCESS_CACHE_MS + 50 - Date.now())));
    expect((await get("/repos/acme/secret", alice)).status).toBe(403);
    expect(checks() - before).toBeGreaterThanOrEqual(1);
    expect(checks() - before).toBeLessThanOrEqual(4);
  });
});
