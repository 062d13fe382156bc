import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../support/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../support/fake-github/make-test-scorecard.js";
import { sendWebhook } from "../support/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../support/fake-github/serve-repository.js";
import { type BotProcess, startBotProcess } from "../support/fake-github/start-bot-process.js";
import { FaultyFakeGitHub, SERVER_ERROR } from "./support/faulty-fake-github.js";

/*
 * The GitHub row that only shows over HTTP, against `npm run bot`: Probot's webhook middleware
 * answers `202 still processing` to a delivery not handled within 9 s, and does not report a failure
 * after that. GitHub takes the 202 as delivered, so the app itself tries the card again
 * (bot/retry-delivery.ts, deployed policy: first wait 5 s). Giving up, and the failed check it
 * leaves, is checked in-process with short waits (test/bot/card-delivery-retry.test.ts).
 */

const SHA = "e".repeat(40);
const PULL: FakePull = { number: 14, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "slow-api", author: "writer" };
const COMMENTS = "/repos/{owner}/{repo}/issues/{issue_number}/comments";

/** Polls the app's log for a line; the process offers no event for a handler's end. */
async function waitForOutput(bot: BotProcess, pattern: RegExp, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (pattern.test(bot.output())) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe("faults in the GitHub API seen over HTTP by `npm run bot`", () => {
  const fake = new FaultyFakeGitHub();
  let bot: BotProcess;
  beforeAll(async () => {
    await fake.start();
    bot = await startBotProcess({ gheHost: fake.host });
  });
  afterAll(async () => {
    await bot?.stop();
    await fake.stop();
  });

  it("the API is down longer than the middleware's 9 s: the delivery is answered 202 and the app retries until the card lands once", async () => {
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], artifacts: { 801: zipScorecard(makeTestScorecard()) } });
    // Octokit's own try and three retries (about 14 s) all fail: the first attempt of the delivery fails.
    fake.failNext("POST", COMMENTS, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR);
    const id = randomUUID();
    const status = await sendWebhook(bot.webhookUrl, {
      event: "workflow_run",
      payload: workflowRunCompleted({ id: 801, headSha: SHA, headBranch: PULL.headBranch, headRepo: `${OWNER}/${REPO}` }),
      id,
      secret: bot.secret,
    });
    expect(status).toBe(202);
    await fake.waitForServed(4);
    expect(await waitForOutput(bot, new RegExp(`${id}[^\\n]*handled on attempt 2|handled on attempt 2[^\\n]*${id}`), 40_000), bot.output()).toBe(true);
    // The failed attempt is logged as a warning naming the delivery, not as an error.
    expect(bot.output()).toMatch(new RegExp(`"level":40[^\\n]*${id}[^\\n]*trying again in 5 s|trying again in 5 s[^\\n]*${id}`));
    expect(bot.output()).not.toMatch(new RegExp(`"level":50[^\\n]*${id}|${id}[^\\n]*"level":50`));
    expect(fake.violations).toEqual([]);
    expect(fake.comments).toHaveLength(1);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]).toMatchObject({ headSha: SHA, status: "completed", conclusion: "success" });
  });
});
