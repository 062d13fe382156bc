import { beforeAll, describe, expect, it } from "vitest";
import { NotFirstParentError, listFirstParentCommits } from "../../src/git/list-first-parent-commits.js";
import { resolveWatchBase } from "../../src/round/run-watch.js";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import { startWatchState } from "../../src/watch/watch-state.js";
import { type MainHistory, buildMainHistory } from "../../harness/git/build-main-history.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * The range a bisection steps through is main's first-parent history: the merges, never a merged
 * branch's own commits, which main was never at. And the drift round's good commit must be an
 * earlier main.
 */
describe("main's first-parent range", () => {
  let history: MainHistory;

  beforeAll(async () => {
    history = await buildMainHistory(await makeTempDir("speedgate-first-parent-"), {
      initial: { "engine/speed.txt": "1\n" },
      merges: [1, 2, 3].map((number) => ({ title: `change ${number}`, files: { "engine/speed.txt": `${number + 1}\n` } })),
      tag: "v0",
    });
  });

  it("lists the good commit and each merge after it, oldest first, and none of the branches' own commits", async () => {
    const commits = await listFirstParentCommits(history.repo.dir, history.good, history.merges[2]?.sha ?? "");
    expect(commits.map((commit) => commit.sha)).toEqual([history.good, ...history.merges.map((merge) => merge.sha)]);
    expect(commits[2]?.subject).toBe("Merge pull request #2 from pr-2");
    expect(commits.some((commit) => history.merges.some((merge) => merge.head === commit.sha))).toBe(false);
  });

  it("gives the one commit when good and bad are the same", async () => {
    const sha = history.merges[1]?.sha ?? "";
    expect((await listFirstParentCommits(history.repo.dir, sha, sha)).map((commit) => commit.sha)).toEqual([sha]);
  });

  it("refuses a good commit of a merged branch, which main was never at", async () => {
    await expect(listFirstParentCommits(history.repo.dir, history.merges[0]?.head ?? "", history.merges[2]?.sha ?? "")).rejects.toThrow(
      NotFirstParentError,
    );
  });

  it("takes the drift round's base from the name given, else the state, else watch.since; never a commit after the head", async () => {
    const head = history.merges[2]?.sha ?? "";
    const labels = { given: "--good", since: "watch.since" };
    const base = { repoDir: history.repo.dir, head, labels };
    const state = startWatchState(history.merges[0]?.sha ?? "", "a test", new Date("2026-01-02T00:00:00Z"));
    expect(await resolveWatchBase({ ...base, given: null, state: null, since: { tag: "v0" } })).toMatchObject({
      good: history.good,
      from: "since",
    });
    expect(await resolveWatchBase({ ...base, given: null, state, since: { tag: "v0" } })).toMatchObject({
      good: state.good,
      from: "state",
    });
    expect(await resolveWatchBase({ ...base, given: "main~1", state, since: { tag: "v0" } })).toMatchObject({
      good: history.merges[1]?.sha,
      from: "given",
    });
    await expect(resolveWatchBase({ ...base, given: null, state: null, since: { tag: "v9" } })).rejects.toThrow(
      /watch.since: expected a tag of the repository/,
    );
    // A later commit than the head is not an earlier main.
    await expect(
      resolveWatchBase({ ...base, head: history.merges[0]?.sha ?? "", given: head, state: null, since: { tag: "v0" } }),
    ).rejects.toThrow(ConfigError);
  });
});
