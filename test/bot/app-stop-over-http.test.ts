import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, pullRequestEvent } from "../../harness/fake-github/adjust-payloads.js";
import { FakeGitHub, type FakeResponse } from "../../harness/fake-github/fake-github-server.js";
import { sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { startBotProcess } from "../support/fake-github/start-bot-process.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * #39: with made-up credentials the app took 18-22 s to stop after SIGTERM, a job stuck in Octokit's retries
 * (Docker kills after 10 s). The app now waits for running jobs only two seconds, hands a job still running
 * back to the queue with its attempt, and exits; the job is a row in the database, and the next start runs it.
 * The stuck call here never ends at all: an app that waited for its jobs would never stop.
 */

const SHA = "c3".repeat(20);

describe("the app's stop with a job stuck in a GitHub call (`npm run bot`, its PGlite kept between two starts)", () => {
  const fake = new FakeGitHub();
  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  it("stops on SIGTERM though the job never ends, hands the job back, and the restarted app runs it", async () => {
    const dataDir = await makeTempDir("speedgate-app-data-");
    const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const env = { SPEEDGATE_DATA_DIR: dataDir };
    const pulls = [{ number: 31, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "fast", author: "writer" }];
    const appId = 4243;
    serveRepository(fake, { owner: OWNER, repo: REPO, appId, pulls });
    // The queued check the job posts first: GitHub never answers it.
    // The fake's waitUntil looks after each answer, and this request is never answered: its arrival says so itself.
    let reached: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (reached = resolve));
    fake.on("POST", "/repos/{owner}/{repo}/check-runs", () => {
      reached();
      return new Promise<FakeResponse>(() => undefined);
    });
    const first = await startBotProcess({ gheHost: fake.host, env, privateKey, appId });
    const id = randomUUID();
    const opened = pullRequestEvent("opened", { number: 31, headSha: SHA, author: "writer" });
    expect(await sendWebhook(first.webhookUrl, { event: "pull_request", payload: opened, id, secret: first.secret })).toBe(200);
    await stuck;

    const stopping = Date.now();
    await first.stop();
    const stoppedAfterS = (Date.now() - stopping) / 1000;
    expect(first.output()).toMatch(/job queue: 1 running job\(s\) did not finish within 2 s of the stop; handed back/);
    expect(first.output(), `stopped after ${stoppedAfterS} s`).toMatch(/stopped in [\d.]+ s/);
    expect(fake.checkRuns).toEqual([]);

    // GitHub answers again; the same folder, the same app: the job runs again, its attempt given back.
    fake.reset();
    serveRepository(fake, { owner: OWNER, repo: REPO, appId, pulls });
    const second = await startBotProcess({ gheHost: fake.host, env, privateKey, appId });
    try {
      await fake.waitUntil(() => fake.checkRuns.length > 0);
      expect(fake.checkRuns).toMatchObject([{ headSha: SHA, name: "speedgate" }]);
      expect(fake.violations).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
