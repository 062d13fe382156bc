import { describe, expect, it } from "vitest";
import { type AccessSource, RepositoryAccess, type UserAccess } from "../../bot/pages/repository-access.js";
import { DEFAULT_ACCESS_CACHE_MS, readPagesSettings } from "../../bot/read-pages-settings.js";

/*
 * The pages' access answers (#42) are GitHub's, trusted for at most the cache's time: a minute by
 * default. On a clock the test moves: within the minute a page view asks GitHub nothing, after it the
 * next view asks again (a user whose access was removed is refused from then on); a failed answer is
 * not kept.
 */

function countingSource(answers: { user: UserAccess }) {
  const asked = { visibility: 0, user: 0 };
  const source: AccessSource = {
    visibility: async () => {
      asked.visibility++;
      return await Promise.resolve("private");
    },
    userAccess: async () => {
      asked.user++;
      if (answers.user === "expired") throw new Error("GitHub is away");
      return await Promise.resolve(answers.user);
    },
  };
  return { source, asked };
}

describe("the pages' access cache", () => {
  it("trusts GitHub's answer for a minute by default, then asks again", async () => {
    let now = 1_000_000;
    const answers: { user: UserAccess } = { user: "read" };
    const { source, asked } = countingSource(answers);
    const settings = readPagesSettings({ SPEEDGATE_PAGES_URL: "https://pages.example/", WEBHOOK_SECRET: "s" });
    expect(settings?.accessCacheMs).toBe(DEFAULT_ACCESS_CACHE_MS);
    const access = new RepositoryAccess(source, settings?.accessCacheMs ?? 0, () => now);
    const alice = { id: 1, login: "alice", token: "ghu_alice" };
    expect(await access.userAccess(alice, "acme", "secret")).toBe("read");
    answers.user = "none";
    now += 59_000;
    expect(await access.userAccess(alice, "Acme", "Secret")).toBe("read");
    expect(asked.user).toBe(1);
    now += 1_001;
    expect(await access.userAccess(alice, "acme", "secret")).toBe("none");
    expect(asked.user).toBe(2);
    // Another user's answer is their own.
    expect(await access.userAccess({ id: 2, login: "bob", token: "ghu_bob" }, "acme", "secret")).toBe("none");
    expect(asked.user).toBe(3);
    await access.visibility("acme", "secret");
    await access.visibility("ACME", "secret");
    expect(asked.visibility).toBe(1);
  });

  it("keeps no failed answer", async () => {
    const answers: { user: UserAccess } = { user: "expired" };
    const { source, asked } = countingSource(answers);
    const access = new RepositoryAccess(source, 60_000, () => 0);
    const alice = { id: 1, login: "alice", token: "ghu_alice" };
    await expect(access.userAccess(alice, "acme", "secret")).rejects.toThrow("GitHub is away");
    answers.user = "read";
    expect(await access.userAccess(alice, "acme", "secret")).toBe("read");
    expect(asked.user).toBe(2);
  });

  it("refuses settings that would trust an answer longer than a minute, or pages without a URL", () => {
    expect(readPagesSettings({ WEBHOOK_SECRET: "s" })).toBeNull();
    expect(() =>
      readPagesSettings({ SPEEDGATE_PAGES_URL: "https://p.example", WEBHOOK_SECRET: "s", SPEEDGATE_PAGES_ACCESS_CACHE_MS: "600000" }),
    ).toThrow(/SPEEDGATE_PAGES_ACCESS_CACHE_MS: expected whole milliseconds from 0 to 60000/);
    expect(() => readPagesSettings({ SPEEDGATE_PAGES_URL: "javascript:alert(1)", WEBHOOK_SECRET: "s" })).toThrow(/SPEEDGATE_PAGES_URL/);
  });
});
