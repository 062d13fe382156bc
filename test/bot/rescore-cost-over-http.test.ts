import { beforeEach, describe, expect, it } from "vitest";
import { MAX_REFUSAL_REACTIONS_PER_PULL, MAX_REFUSAL_REPLIES_PER_PULL } from "../../bot/handlers/answer-refusal.js";
import { OWNER, REPO, issueCommentCreated } from "../../harness/fake-github/adjust-payloads.js";
import type { FakeGitHub } from "../../harness/fake-github/fake-github-server.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";

/*
 * Issue #24, point 3: each drive-by `/rescore` cost about four API calls of the installation's rate
 * limit (100 comments: 401 calls), and each account got a reply of its own (100 accounts: 100
 * replies), so two or three accounts could starve card posting. Played against `npm run bot`, counting
 * every request the app makes to the GitHub fake.
 */

const SHA = "e5".repeat(20);
let nextPull = 1200;
function newPull(): FakePull {
  nextPull++;
  return {
    number: nextPull,
    headSha: SHA,
    headRepo: `${OWNER}/${REPO}`,
    headBranch: `topic-${nextPull}`,
    author: "outsider",
    pushedAt: new Date(Date.now() - 30 * 60_000).toISOString(),
  };
}

/** The requests the app made, by route, leaving out installation tokens (one an hour, not per comment). */
function apiCalls(fake: FakeGitHub): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const request of fake.requests) {
    if (request.template === "/app/installations/{installation_id}/access_tokens") continue;
    const route = `${request.method} ${request.template ?? request.path}`;
    calls[route] = (calls[route] ?? 0) + 1;
  }
  return calls;
}
const total = (calls: Record<string, number>): number => Object.values(calls).reduce((sum, count) => sum + count, 0);

describe("what drive-by /rescore comments cost the installation (`npm run bot`)", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  beforeEach(() => {
    bot = running();
  });

  /** Delivers `count` `/rescore` comments on `pull`, the n-th from `author(n)`, each answered 200 and settled. */
  async function commentRescores(
    pull: FakePull,
    count: number,
    author: (index: number) => { login: string; association: string; ownerType: "User" | "Organization" },
  ): Promise<void> {
    for (let index = 0; index < count; index++) {
      expect(
        await deliverAndSettle(bot, "issue_comment", issueCommentCreated({ number: pull.number, body: "/rescore", ...author(index) })),
      ).toBe(200);
    }
  }

  it(
    "refuses 100 comments of someone with no association to a personal repository from the payload: one reply, capped reactions, no " +
      "other call",
    async () => {
      const pull = newPull();
      const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: { maintainer: "admin" } });
      await commentRescores(pull, 100, () => ({ login: "drive-by", association: "NONE", ownerType: "User" }));
      const calls = apiCalls(fake);
      expect(calls).toEqual({
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": 1,
        "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions": MAX_REFUSAL_REACTIONS_PER_PULL,
      });
      expect(fake.comments[0]?.body).toBe("`/rescore` was not run: only the repository's owner and its collaborators may start scoring.");
      expect(repo.dispatches).toEqual([]);
      // The owner (OWNER on the payload) is still asked about and served as before.
      expect(
        await deliverAndSettle(
          bot,
          "issue_comment",
          issueCommentCreated({ number: pull.number, body: "/rescore", login: "maintainer", association: "OWNER", ownerType: "User" }),
        ),
      ).toBe(200);
      expect(repo.dispatches).toHaveLength(1);
    },
    180_000,
  );

  it("answers 100 accounts on an organisation's repository with a few replies, asking only for each one's permission", async () => {
    const pull = newPull();
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: { maintainer: "admin" } });
    // A private member of the organisation would show as CONTRIBUTOR too: the payload cannot settle it.
    await commentRescores(pull, 100, (index) => ({ login: `account-${index}`, association: "CONTRIBUTOR", ownerType: "Organization" }));
    const calls = apiCalls(fake);
    expect(calls).toEqual({
      "GET /repos/{owner}/{repo}/collaborators/{username}/permission": 100,
      "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": MAX_REFUSAL_REPLIES_PER_PULL,
      "POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions": MAX_REFUSAL_REACTIONS_PER_PULL,
    });
    // 401 calls and 100 replies before; the config is never read for someone the permission already refuses.
    expect(total(calls)).toBeLessThanOrEqual(100 + MAX_REFUSAL_REPLIES_PER_PULL + MAX_REFUSAL_REACTIONS_PER_PULL);
    expect(repo.dispatches).toEqual([]);
  }, 180_000);

  it("reads one account's permission once however many /rescore comments it writes on an organisation's repository", async () => {
    const pull = newPull();
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: { maintainer: "admin" } });
    await commentRescores(pull, 50, () => ({ login: "one-account", association: "CONTRIBUTOR", ownerType: "Organization" }));
    // Once a minute at most (bot/collaborator-role-cache.ts): 50 before.
    expect(apiCalls(fake)["GET /repos/{owner}/{repo}/collaborators/{username}/permission"]).toBe(1);
    expect(repo.dispatches).toEqual([]);
  }, 180_000);
});
