import type { Probot } from "probot";
import { beforeAll, describe, expect, it } from "vitest";
import { SECONDARY_LIMIT_RETRIES } from "../../bot/app-octokit.js";
import { createTestProbot } from "../../harness/fake-github/create-test-probot.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

const SECONDARY_LIMIT = {
  status: 403,
  headers: { "retry-after": "1", "x-ratelimit-remaining": "4000" },
  body: { message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." },
};

/** The Octokit bot/server.ts deploys with: Probot's throttling, but secondary rate limits are retried. */
describe("AppOctokit", () => {
  const fake = useFakeGitHub();
  let probot: Probot;

  beforeAll(async () => {
    probot = await createTestProbot({ fakeUrl: fake.url, appId: 5, octokit: "deployed", logLevel: "fatal", app: false });
  });

  it("waits out a secondary rate limit and retries, where Probot's own settings give up", async () => {
    serveRepository(fake, { owner: "o", repo: "r", appId: 5, groups: ["app"] });
    let refusals = 1;
    fake.on("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", () =>
      refusals-- > 0 ? SECONDARY_LIMIT : { status: 201, body: { id: 1, body: "ok" } },
    );
    const octokit = await probot.auth(1);
    const response = await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      owner: "o",
      repo: "r",
      issue_number: 1,
      body: "ok",
    });
    expect(response.status).toBe(201);
    expect(fake.calls("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments")).toHaveLength(2);
  });

  it("gives up after a bounded number of retries", async () => {
    serveRepository(fake, { owner: "o", repo: "r", appId: 5, groups: ["app"] });
    fake.on("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments", () => SECONDARY_LIMIT);
    const octokit = await probot.auth(1);
    await expect(
      octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner: "o", repo: "r", issue_number: 1, body: "ok" }),
    ).rejects.toMatchObject({ status: 403 });
    expect(fake.calls("POST", "/repos/{owner}/{repo}/issues/{issue_number}/comments")).toHaveLength(SECONDARY_LIMIT_RETRIES + 1);
  });
});
