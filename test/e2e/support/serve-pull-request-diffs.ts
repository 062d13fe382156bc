import type { FakeGitHub } from "../../../harness/fake-github/fake-github-server.js";

/**
 * The compare route the action's patch-from-pr reads: the diff of `base...head` for each head SHA
 * the test registered. Records what was asked, so a test can check that exactly the dispatched
 * commit was fetched.
 */
export function servePullRequestDiffs(fake: FakeGitHub, diffs: Map<string, string>): { compared: string[] } {
  const compared: string[] = [];
  fake.on("GET", "/repos/{owner}/{repo}/compare/{basehead}", (request) => {
    const basehead = request.pathParams.basehead ?? "";
    compared.push(basehead);
    const diff = diffs.get(basehead);
    if (diff === undefined || !String(request.headers.accept).includes("diff")) return { status: 404, body: { message: "Not Found" } };
    return { status: 200, body: diff, headers: { "content-type": "application/vnd.github.diff; charset=utf-8" } };
  });
  return { compared };
}
