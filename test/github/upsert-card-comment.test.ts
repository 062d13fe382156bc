import { getOctokit } from "@actions/github";
import { beforeEach, describe, expect, it } from "vitest";
import type { GitHubClient } from "../../src/github/github-client.js";
import { upsertCardComment } from "../../src/github/upsert-card-comment.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

const repo = { owner: "o", repo: "r" };
const card = (text: string): string => `<!-- speedgate -->\n## ${text}\n`;

describe("upsertCardComment (with the action's Octokit, as `comment: true` uses it)", () => {
  const fake = useFakeGitHub();
  const client = () => getOctokit("token", { baseUrl: fake.apiUrl });

  beforeEach(() => {
    serveRepository(fake, { ...repo, appId: 1, groups: ["comments"] });
  });

  it("creates the card comment, then edits it in place", async () => {
    const first = await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("one") });
    const second = await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("two") });
    expect(first.action).toBe("created");
    expect(second).toEqual({ commentId: first.commentId, action: "updated", removed: 0 });
    expect(fake.comments.map((comment) => comment.body)).toEqual([card("two")]);
  });

  it("leaves a person's comment that quotes the marker alone", async () => {
    fake.comments.push({ id: 1, issueNumber: 5, body: card("mine"), login: "someone", type: "User", createdAt: fake.now() });
    await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("card") });
    expect(fake.comments.map((comment) => [comment.login, comment.body])).toEqual([
      ["someone", card("mine")],
      ["speedgate[bot]", card("card")],
    ]);
  });

  it("matches the card by its author's login when given one (the action posting with a personal token)", async () => {
    fake.comments.push({ id: 1, issueNumber: 5, body: card("by pat"), login: "release-bot", type: "User", createdAt: fake.now() });
    fake.comments.push({ id: 2, issueNumber: 5, body: card("other bot"), login: "other[bot]", type: "Bot", createdAt: fake.now() });
    const result = await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("new"), authorLogin: "release-bot" });
    expect(result).toEqual({ commentId: 1, action: "updated", removed: 0 });
    expect(fake.comments.map((comment) => comment.body)).toEqual([card("new"), card("other bot")]);
  });

  it("folds duplicates a race between processes left into the oldest", async () => {
    for (const id of [10, 11, 12]) {
      fake.comments.push({ id, issueNumber: 5, body: card(`copy ${id}`), login: "speedgate[bot]", type: "Bot", createdAt: fake.now() });
    }
    const result = await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("latest") });
    expect(result).toEqual({ commentId: 10, action: "updated", removed: 2 });
    expect(fake.comments.map((comment) => [comment.id, comment.body])).toEqual([[10, card("latest")]]);
  });

  /** A client under which another process posts its card just before this one's create lands. */
  const racedBy = (otherBody: string): GitHubClient => {
    const inner = client();
    return {
      request: async (route, parameters) => {
        if (route.startsWith("POST "))
          fake.comments.push({ id: 50, issueNumber: 5, body: otherBody, login: "speedgate[bot]", type: "Bot", createdAt: fake.now() });
        return await inner.request(route, parameters);
      },
    };
  };

  it("after a create, folds a card another process created meanwhile: the oldest stays, with this card", async () => {
    const result = await upsertCardComment(racedBy(card("other")), { ...repo, issueNumber: 5, body: card("mine") });
    expect(result).toEqual({ commentId: 50, action: "created", removed: 1 });
    expect(fake.comments.map((comment) => [comment.id, comment.body])).toEqual([[50, card("mine")]]);
  });

  it("after a create, keeps the other process's card when shouldReplace says it is newer", async () => {
    const result = await upsertCardComment(racedBy(card("newer")), {
      ...repo,
      issueNumber: 5,
      body: card("older"),
      shouldReplace: () => false,
    });
    expect(result).toEqual({ commentId: 50, action: "kept", removed: 1 });
    expect(fake.comments.map((comment) => [comment.id, comment.body])).toEqual([[50, card("newer")]]);
  });

  it("finds the card past the first page of comments", async () => {
    for (let index = 0; index < 130; index++) {
      fake.comments.push({ id: 100 + index, issueNumber: 5, body: `chat ${index}`, login: "p", type: "User", createdAt: fake.now() });
    }
    fake.comments.push({ id: 999, issueNumber: 5, body: card("old"), login: "speedgate[bot]", type: "Bot", createdAt: fake.now() });
    const result = await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("new") });
    expect(result.commentId).toBe(999);
    expect(fake.comments).toHaveLength(131);
  });

  it("keeps the existing card when told it is newer", async () => {
    await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("newer") });
    const result = await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("older"), shouldReplace: () => false });
    expect(result.action).toBe("kept");
    expect(fake.comments.map((comment) => comment.body)).toEqual([card("newer")]);
  });

  it("cuts a body over GitHub's 65,536-character limit instead of being refused", async () => {
    await upsertCardComment(client(), { ...repo, issueNumber: 5, body: card("x".repeat(70_000)) });
    expect(fake.comments[0]?.body.length).toBeLessThanOrEqual(65_536);
  });
});
