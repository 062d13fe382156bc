import { describe, expect, it } from "vitest";
import { parseStepRunTitle, stepRunTitle } from "../../src/github/dispatch-watch-step.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { NotOnMainError, listMainRange } from "../../src/github/list-main-range.js";

const sha = (name: string): string => name.repeat(40).slice(0, 40);

/** main: g, then m1 (merging b1), m2 (merging b2, which branched from g); compare as GitHub answers, oldest first, paged. */
const COMMITS = [
  { sha: sha("a"), parents: [], message: "the engine" },
  { sha: sha("1"), parents: [sha("a")], message: "change 1" },
  { sha: sha("b"), parents: [sha("a"), sha("1")], message: "Merge pull request #1 from dev/one\n\nchange 1" },
  { sha: sha("2"), parents: [sha("a")], message: "change 2" },
  { sha: sha("c"), parents: [sha("b"), sha("2")], message: "Merge pull request #2 from dev/two" },
];

function fakeClient(requests: string[]): GitHubClient {
  const json = (commit: (typeof COMMITS)[number]) => ({
    sha: commit.sha,
    parents: commit.parents.map((parent) => ({ sha: parent })),
    commit: { message: commit.message, committer: { date: "2026-11-01T00:00:00Z" } },
  });
  return {
    request: (route, parameters = {}) => {
      requests.push(`${route} ${JSON.stringify(parameters)}`);
      if (route === "GET /repos/{owner}/{repo}/commits/{ref}") {
        const commit = COMMITS.find((candidate) => candidate.sha === parameters.ref);
        if (!commit) return Promise.reject(Object.assign(new Error("Not Found"), { status: 404 }));
        return Promise.resolve({ status: 200, data: json(commit), headers: {} });
      }
      const [base] = String(parameters.basehead).split("...");
      const after = COMMITS.slice(COMMITS.findIndex((commit) => commit.sha === base) + 1);
      const perPage = Number(parameters.per_page);
      const page = Number(parameters.page);
      // Paged two at a time here, so the walk must read every page.
      const size = Math.min(perPage, 2);
      return Promise.resolve({
        status: 200,
        data: { total_commits: after.length, commits: after.slice((page - 1) * size, page * size).map(json) },
        headers: {},
      });
    },
  };
}

describe("listMainRange", () => {
  it("walks main's first parents from the bad commit to the good one: the merges, never a merged branch's own commits", async () => {
    const requests: string[] = [];
    const range = await listMainRange(fakeClient(requests), { owner: "o", repo: "r", good: sha("a"), bad: sha("c") });
    expect(range.map((commit) => commit.sha)).toEqual([sha("a"), sha("b"), sha("c")]);
    expect(range.map((commit) => commit.subject)).toEqual([
      "the engine",
      "Merge pull request #1 from dev/one",
      "Merge pull request #2 from dev/two",
    ]);
    expect(requests.filter((request) => request.startsWith("GET /repos/{owner}/{repo}/compare/"))).toHaveLength(2);
  });

  it("refuses a good commit main was never at (a merged branch's own commit)", async () => {
    await expect(listMainRange(fakeClient([]), { owner: "o", repo: "r", good: sha("1"), bad: sha("c") })).rejects.toThrow(NotOnMainError);
  });

  it("gives the one commit when good and bad are the same", async () => {
    const range = await listMainRange(fakeClient([]), { owner: "o", repo: "r", good: sha("b"), bad: sha("b") });
    expect(range.map((commit) => commit.sha)).toEqual([sha("b")]);
  });
});

describe("a step's run title", () => {
  it("names the bisection and the step, and reads back only a step's title", () => {
    const title = stepRunTitle(12, "probe-8-2");
    expect(title).toBe("speedgate bisection 12 probe-8-2");
    expect(parseStepRunTitle(title)).toEqual({ bisectionId: 12, stepKey: "probe-8-2" });
    expect(parseStepRunTitle("speedgate-watch")).toBeNull();
    // A change point's bisection runs its range round as its first step.
    expect(parseStepRunTitle("speedgate bisection 12 range")).toEqual({ bisectionId: 12, stepKey: "range" });
    expect(parseStepRunTitle("speedgate bisection 12 drift-1-1")).toBeNull();
    expect(parseStepRunTitle("speedgate bisection x probe-8-2")).toBeNull();
  });
});
