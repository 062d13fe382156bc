import { createActionOctokit } from "../../action/create-action-octokit.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { upsertCardComment } from "../../src/github/upsert-card-comment.js";
import { CARD_MARKER } from "../../src/scorecard/render/render-markdown.js";
import { OWNER, REPO } from "../../harness/fake-github/adjust-payloads.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { runStep } from "../action/support/action-step.js";
import { type ActionRound, writeActionRound } from "../action/support/write-action-round.js";
import { FaultyFakeGitHub, SERVER_ERROR, secondaryRateLimit } from "./support/faulty-fake-github.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * The GitHub rows for the action's `comment: true`: action/runner.ts builds its client with
 * createActionOctokit (getOctokit with plugin-retry and plugin-throttling) and posts through the
 * same upsertCardComment as the app, so a 500 or a rate limit is retried, not a lost comment.
 */

const PULL: FakePull = { number: 3, headSha: "f".repeat(40), headRepo: `${OWNER}/${REPO}`, headBranch: "b", author: "writer" };
const COMMENTS = "/repos/{owner}/{repo}/issues/{issue_number}/comments";
const BODY = `${CARD_MARKER}\n\n## ✅ Round score 1.20×`;

describe("faults in the GitHub API for the action's card comment", () => {
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub() });
  beforeEach(() => {
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: 1, pulls: [PULL], groups: ["comments"] });
  });

  const post = async () =>
    await upsertCardComment(createActionOctokit("ghs_token", { baseUrl: fake.apiUrl }), {
      owner: OWNER,
      repo: REPO,
      issueNumber: PULL.number,
      body: BODY,
    });

  it("lands the comment once when the API answers normally, and edits it on the next run", async () => {
    await post();
    await post();
    expect(fake.comments).toHaveLength(1);
  });

  it.each([
    ["creating the comment answers 500 once", "POST", SERVER_ERROR],
    ["listing the comments answers 500 once", "GET", SERVER_ERROR],
    ["creating the comment hits a secondary rate limit (429, retry-after: 1)", "POST", secondaryRateLimit(429)],
    ["creating the comment hits a secondary rate limit (403, retry-after: 1)", "POST", secondaryRateLimit(403)],
  ] as const)("%s, then recovers: the comment still lands once", async (_name, method, fault) => {
    fake.failNext(method, COMMENTS, fault);
    await post();
    expect(fake.served).toHaveLength(1);
    expect(fake.comments).toHaveLength(1);
  });

  describe("through the bundled action (dist/index.js, as action/runner.ts builds its client)", () => {
    let round: ActionRound;
    let workDir: string;
    beforeAll(async () => {
      // The step runs under a pull_request event: runtime: process needs the config to vouch for the authors.
      round = await writeActionRound({ candidate: { trusted: true } });
      workDir = await mkdtemp(join(tmpdir(), "speedgate-comment-faults-"));
    });
    afterAll(async () => {
      await rm(round.dir, { recursive: true, force: true });
      await rm(workDir, { recursive: true, force: true });
    });

    it("creating the comment answers 500 once: the step still lands the comment once", async () => {
      fake.failNext("POST", COMMENTS, SERVER_ERROR);
      const step = await runStep({
        entry: "index",
        workDir,
        event: {
          name: "pull_request",
          payload: { pull_request: { number: PULL.number, head: { sha: PULL.headSha } }, number: PULL.number },
        },
        // The verdict is not what this row is about: with no patch, the two engines tie within noise.
        inputs: { config: round.configPath, comment: "true", "github-token": "ghs_test", "fail-on-gate": "false" },
        env: { GITHUB_API_URL: fake.apiUrl, GITHUB_REPOSITORY: `${OWNER}/${REPO}` },
      });
      expect(step.exitCode, step.stdout + step.stderr).toBe(0);
      expect(fake.served).toEqual([`POST ${COMMENTS} -> 500`]);
      expect(fake.comments).toHaveLength(1);
      expect(step.stdout).toContain(`Card comment created on #${PULL.number}`);
    });
  });
});
