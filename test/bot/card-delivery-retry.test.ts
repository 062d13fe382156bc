import { randomUUID } from "node:crypto";
import type { Probot } from "probot";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { describeEachBackend } from "../support/database/database-backends.js";
import { type StoredApp, startStoredApp } from "../support/database/start-stored-app.js";
import { FaultyFakeGitHub, SERVER_ERROR } from "../faults/support/faulty-fake-github.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * A card whose posting fails is a job the queue retries with backoff (graphile-worker, in the
 * database): Octokit's own retries off, the app's waits shortened by making each failed job due again
 * once its failure is recorded, three attempts, so each injected fault fails one attempt.
 */

const SHA = "a".repeat(40);
const PULL: FakePull = { number: 8, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "retry", author: "writer" };
const APP_ID = 6161;
const COMMENTS = "/repos/{owner}/{repo}/issues/{issue_number}/comments";

describeEachBackend("a card whose posting fails is retried by the queue, and a give-up is visible on the check", (backend) => {
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub() });
  let app: StoredApp;
  // The app handles a workflow run's attempt once, whatever the delivery id: each test has its own run.
  let runId = 900;

  beforeAll(async () => {
    app = await startStoredApp({ fakeUrl: fake.url, appId: APP_ID, backend, octokit: "plain", maxAttempts: 3, expediteRetries: true });
  });
  afterAll(async () => await app.stop());
  beforeEach(() => {
    runId++;
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      artifacts: { [runId]: zipScorecard(makeTestScorecard()) },
    });
  });

  const deliver = async (id: string): Promise<void> =>
    await app.probot.receive({
      id,
      name: "workflow_run",
      payload: workflowRunCompleted({ id: runId, headSha: SHA, headBranch: PULL.headBranch, headRepo: `${OWNER}/${REPO}` }),
    } as Parameters<Probot["receive"]>[0]);

  it("acknowledges the delivery once stored, and lands the card on the third attempt after two 500s", async () => {
    fake.failNext("POST", COMMENTS, SERVER_ERROR, SERVER_ERROR);
    await deliver(randomUUID());
    await app.settled();
    expect(fake.served).toHaveLength(2);
    expect(fake.comments).toHaveLength(1);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("gives up after the last attempt: the check says why and what to redeliver, and the redelivery lands the card", async () => {
    fake.failNext("POST", COMMENTS, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR);
    const id = randomUUID();
    await deliver(id);
    await app.settled();
    expect(fake.served).toHaveLength(3);
    expect(fake.comments).toEqual([]);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]).toMatchObject({
      headSha: SHA,
      status: "completed",
      conclusion: "failure",
      title: "The card could not be posted",
    });
    expect(fake.checkRuns[0]?.summary).toContain("The card could not be posted: GitHub answered 500");
    expect(fake.checkRuns[0]?.summary).toContain(`Redeliver the workflow_run delivery \`${id}\``);
    expect(fake.checkRuns[0]?.summary).toContain("/rescore");

    // The given-up work released its receipt, so GitHub's redelivery of it is done, not dropped as a copy.
    await deliver(id);
    await app.settled();
    expect(fake.comments).toHaveLength(1);
    const newest = [...fake.checkRuns].sort((a, b) => b.id - a.id)[0];
    expect(newest).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("does not retry an answer that will not change (422) beyond its attempts, and still leaves the failure on the check", async () => {
    fake.failNext(
      "POST",
      COMMENTS,
      { response: { status: 422, body: { message: "Validation Failed" } } },
      { response: { status: 422, body: { message: "Validation Failed" } } },
      { response: { status: 422, body: { message: "Validation Failed" } } },
    );
    await deliver(randomUUID());
    await app.settled();
    expect(fake.calls("POST", COMMENTS)).toHaveLength(3);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]?.summary).toContain("GitHub answered 422");
  });
});
