import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { type BotProcess, startBotProcess } from "../support/fake-github/start-bot-process.js";
import { FaultyFakeGitHub, SERVER_ERROR } from "./support/faulty-fake-github.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * The GitHub row that only shows over HTTP, against `npm run bot`: the delivery is answered as soon as
 * its work is stored in the database, whatever GitHub's API does next (Probot's 9 s limit, after which it
 * answers 202 and drops a failure, no longer matters). The job's first attempt fails through Octokit's
 * own retries; the queue runs it again after its backoff (e^1 s) and the card lands once.
 */

const SHA = "e".repeat(40);
const PULL: FakePull = { number: 14, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "slow-api", author: "writer" };
const COMMENTS = "/repos/{owner}/{repo}/issues/{issue_number}/comments";

describe("faults in the GitHub API seen over HTTP by `npm run bot`", () => {
  let bot: BotProcess;
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub(), explain: () => bot?.output().slice(-4000) });
  beforeAll(async () => {
    bot = await startBotProcess({ gheHost: fake.host });
  });
  afterAll(async () => await bot?.stop());

  it(
    "the API is down longer than Octokit's retries: the delivery is answered 200 at once, and the queue retries until the card lands " +
      "once",
    async () => {
      serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: bot.appId,
        pulls: [PULL],
        artifacts: { 801: zipScorecard(makeTestScorecard()) },
      });
      // Octokit's own try and three retries (about 14 s) all fail: the first attempt of the job fails.
      fake.failNext("POST", COMMENTS, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR);
      const id = randomUUID();
      const status = await sendWebhook(bot.webhookUrl, {
        event: "workflow_run",
        payload: workflowRunCompleted({ id: 801, headSha: SHA, headBranch: PULL.headBranch, headRepo: `${OWNER}/${REPO}` }),
        id,
        secret: bot.secret,
      });
      expect(status).toBe(200);
      expect(fake.comments).toEqual([]);
      await bot.settled(id);
      // The failed attempt is logged as a warning naming the work and the delivery, not as an error.
      expect(bot.output()).toMatch(new RegExp(`"level":40[^\\n]*"delivery":"${id}"[^\\n]*"outcome":"retry"`));
      expect(bot.output()).toMatch(new RegExp(`"delivery":"${id}"[^\\n]*"outcome":"done"[^\\n]*publish-card [^"]* done on attempt 2`));
      expect(bot.output()).not.toMatch(new RegExp(`"level":50[^\\n]*${id}|${id}[^\\n]*"level":50`));
      expect(fake.violations).toEqual([]);
      expect(fake.comments).toHaveLength(1);
      expect(fake.checkRuns).toHaveLength(1);
      expect(fake.checkRuns[0]).toMatchObject({ headSha: SHA, status: "completed", conclusion: "success" });
    },
  );
});
