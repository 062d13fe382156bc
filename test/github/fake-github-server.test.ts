import { getOctokit } from "@actions/github";
import { describe, expect, it } from "vitest";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/** The fake must refuse what GitHub would, or the app's tests prove nothing. */
describe("the GitHub fake", () => {
  // Its tests make violations on purpose and check each one.
  const fake = useFakeGitHub({ checkViolations: false });
  const client = () => getOctokit("token", { baseUrl: fake.apiUrl, request: { retries: 0 } });

  it("records a route the published description does not have", async () => {
    await expect(client().request("GET /repos/{owner}/{repo}/speedups", { owner: "o", repo: "r" })).rejects.toThrow();
    expect(fake.violations).toEqual(["no such route: GET /repos/o/r/speedups"]);
  });

  it("records a body the description rejects (a neutral check with a made-up status)", async () => {
    fake.on("POST", "/repos/{owner}/{repo}/check-runs", () => ({ status: 201, body: {} }));
    await expect(
      // Sent as an untyped route, the way a mistaken caller would reach GitHub.
      client().request({ method: "POST", url: "/repos/o/r/check-runs", name: "speedgate", head_sha: "a", status: "skipped" }),
    ).rejects.toThrow();
    expect(fake.violations[0]).toMatch(/check-runs: body rejected by the description: \/status must be equal to one of the allowed values/);
  });

  it("records an unknown query parameter", async () => {
    fake.on("GET", "/repos/{owner}/{repo}/pulls", () => ({ status: 200, body: [] }));
    await client()
      .request("GET /repos/{owner}/{repo}/pulls", { owner: "o", repo: "r", author: "x" })
      .catch(() => undefined);
    expect(fake.violations).toEqual(["GET /repos/{owner}/{repo}/pulls: unknown query parameter author"]);
  });

  it("records a valid request the test did not expect", async () => {
    await client()
      .request("GET /repos/{owner}/{repo}/pulls", { owner: "o", repo: "r" })
      .catch(() => undefined);
    expect(fake.violations).toEqual(["request the test did not expect: GET /repos/{owner}/{repo}/pulls (/repos/o/r/pulls)"]);
  });

  it("answers an expected, valid request with the test's handler", async () => {
    fake.on("GET", "/repos/{owner}/{repo}/pulls", () => ({ status: 200, body: [{ number: 1 }] }));
    const response = await client().request("GET /repos/{owner}/{repo}/pulls", { owner: "o", repo: "r", state: "open" });
    expect(response.data).toEqual([{ number: 1 }]);
    expect(fake.violations).toEqual([]);
  });
});
