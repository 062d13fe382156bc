import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/vocabulary/config-error.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { silentLogger } from "../../src/logger.js";
import { fetchPullRequestPatch } from "../../src/github/fetch-pull-request-patch.js";
import { sampleDiff } from "../patch/sample-diff.js";

interface Call {
  route: string;
  parameters: Record<string, unknown>;
}

function fakeClient(answer: (call: Call) => unknown): GitHubClient & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    // async so that a thrown answer becomes a rejection, as Octokit's RequestError does.
    async request(route, parameters = {}) {
      const call = { route, parameters };
      calls.push(call);
      await Promise.resolve();
      return { status: 200, headers: {}, data: answer(call) };
    },
  };
}

const base = {
  owner: "Codertocat",
  repo: "Hello-World",
  pullNumber: 2,
  headSha: "e".repeat(40),
  label: 'input "patch-from-pr"',
  logger: silentLogger,
};

function answerWith(diff: string) {
  return (call: Call): unknown =>
    call.route.includes("/pulls/") ? { base: { sha: "b".repeat(40) }, head: { sha: "f".repeat(40) } } : diff;
}

describe("fetchPullRequestPatch", () => {
  it("asks for the diff of exactly the requested commit against the pull request's base", async () => {
    const client = fakeClient(answerWith(sampleDiff));
    const patch = await fetchPullRequestPatch(client, { ...base, paths: [] });
    expect(patch.bytes.toString("utf8")).toBe(sampleDiff);
    expect(patch.baseSha).toBe("b".repeat(40));
    expect(client.calls[1]).toEqual({
      route: "GET /repos/{owner}/{repo}/compare/{basehead}",
      parameters: {
        owner: "Codertocat",
        repo: "Hello-World",
        basehead: `${"b".repeat(40)}...${"e".repeat(40)}`,
        mediaType: { format: "diff" },
      },
    });
  });

  it("limits the diff to patch-paths", async () => {
    const patch = await fetchPullRequestPatch(fakeClient(answerWith(sampleDiff)), { ...base, paths: ["python/**"] });
    expect(patch.files).toEqual(["python/sglang/srt/server.py", "python/old_name.py -> python/new_name.py"]);
    expect(patch.bytes.toString("utf8")).not.toContain("docs/speed.md");
  });

  it("refuses patch-paths that match nothing, naming the input", async () => {
    await expect(fetchPullRequestPatch(fakeClient(answerWith(sampleDiff)), { ...base, paths: ["csrc/**"] })).rejects.toThrow(
      /^input "patch-paths": expected globs matching at least one changed file, matched none of 5 \(python/,
    );
  });

  it("refuses an empty diff like any patch", async () => {
    await expect(fetchPullRequestPatch(fakeClient(answerWith("")), { ...base, paths: [] })).rejects.toThrow(
      /^input "patch-from-pr" \(pull request #2 of Codertocat\/Hello-World at eeeeeeeeeeee\): expected a non-empty patch/,
    );
  });

  it("explains a pull request the token cannot see", async () => {
    const notFound = Object.assign(new Error("Not Found"), { status: 404 });
    const client = fakeClient(() => {
      throw notFound;
    });
    const failure = fetchPullRequestPatch(client, { ...base, paths: [] });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(/pull request #2 of Codertocat\/Hello-World was not found \(HTTP 404\).*pull-requests: read/);
  });
});
