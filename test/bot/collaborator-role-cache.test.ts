import { describe, expect, it } from "vitest";
import { CollaboratorRoleCache, ROLE_CACHE_MS } from "../../bot/collaborator-role-cache.js";
import type { GitHubClient } from "../../src/github/github-client.js";

/** A client that answers the permission endpoint from `roles`, counting reads; `failing` accounts get a 502. */
function permissionClient(roles: Record<string, string>, failing: Set<string> = new Set()): { client: GitHubClient; reads: string[] } {
  const reads: string[] = [];
  const client: GitHubClient = {
    request: (_route, parameters) => {
      const username = String(parameters?.username);
      reads.push(`${String(parameters?.repo)}:${username}`);
      if (failing.has(username)) return Promise.reject(Object.assign(new Error("bad gateway"), { status: 502 }));
      return Promise.resolve({
        status: 200,
        headers: {},
        data: { role_name: roles[username.toLowerCase()] ?? "read", permission: "read" },
      });
    },
  };
  return { client, reads };
}

describe("CollaboratorRoleCache", () => {
  const repo = { owner: "org", repo: "engine" };

  it("reads one account's role once for the period, per repository, and again after it", async () => {
    let now = 0;
    const cache = new CollaboratorRoleCache(ROLE_CACHE_MS, () => now);
    const { client, reads } = permissionClient({ maintainer: "maintain" });
    for (let index = 0; index < 100; index++) expect(await cache.read(client, repo, "drive-by")).toBe("read");
    expect(await cache.read(client, repo, "Maintainer")).toBe("maintain");
    expect(await cache.read(client, { ...repo, repo: "other" }, "drive-by")).toBe("read");
    expect(reads).toEqual(["engine:drive-by", "engine:Maintainer", "other:drive-by"]);
    now += ROLE_CACHE_MS;
    await cache.read(client, repo, "drive-by");
    expect(reads).toHaveLength(4);
  });

  it("keeps no failed read: the next asks again", async () => {
    const cache = new CollaboratorRoleCache();
    const failing = new Set(["flaky"]);
    const { client, reads } = permissionClient({}, failing);
    await expect(cache.read(client, repo, "flaky")).rejects.toThrow("bad gateway");
    failing.clear();
    expect(await cache.read(client, repo, "flaky")).toBe("read");
    expect(reads).toEqual(["engine:flaky", "engine:flaky"]);
  });
});
