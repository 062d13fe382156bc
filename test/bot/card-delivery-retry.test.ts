import { randomUUID } from "node:crypto";
import type { Probot } from "probot";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../support/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../support/fake-github/make-test-scorecard.js";
import { type FakePull, serveRepository } from "../support/fake-github/serve-repository.js";
import { createSilentProbot } from "../faults/support/create-silent-probot.js";
import { FaultyFakeGitHub, SERVER_ERROR } from "../faults/support/faulty-fake-github.js";

/*
 * bot/retry-delivery.ts through the app: Octokit's own retries off and the app's waits shortened to
 * 1 ms, so each injected fault fails one attempt of the delivery and giving up takes no time.
 */

const SHA = "a".repeat(40);
const PULL: FakePull = { number: 8, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "retry", author: "writer" };
const APP_ID = 6161;
// The app handles a workflow run's attempt once, whatever the delivery id: each test has its own run.
let runId = 900;
const COMMENTS = "/repos/{owner}/{repo}/issues/{issue_number}/comments";

describe("a card whose posting fails is retried by the app, and a give-up is visible on the check", () => {
  const fake = new FaultyFakeGitHub();
  let probot: Probot;

  beforeAll(async () => {
    await fake.start();
    probot = await createSilentProbot({ fakeUrl: fake.url, appId: APP_ID, octokit: "plain", app: { deliveryRetry: { delaysMs: [1, 1], budgetMs: 60_000 } } });
  });
  afterAll(async () => await fake.stop());
  beforeEach(() => {
    fake.reset();
    runId++;
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], artifacts: { [runId]: zipScorecard(makeTestScorecard()) } });
  });
  afterEach(() => expect(fake.violations).toEqual([]));

  const deliver = async (id: string): Promise<void> =>
    await probot.receive({
      id,
      name: "workflow_run",
      payload: workflowRunCompleted({ id: runId, headSha: SHA, headBranch: PULL.headBranch, headRepo: `${OWNER}/${REPO}` }),
    } as Parameters<Probot["receive"]>[0]);

  it("lands the card on the third attempt after two 500s", async () => {
    fake.failNext("POST", COMMENTS, SERVER_ERROR, SERVER_ERROR);
    await deliver(randomUUID());
    expect(fake.served).toHaveLength(2);
    expect(fake.comments).toHaveLength(1);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("gives up after the last attempt: the delivery fails, the check says why and what to redeliver, and the redelivery lands the card", async () => {
    fake.failNext("POST", COMMENTS, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR);
    const id = randomUUID();
    await expect(deliver(id)).rejects.toThrow();
    expect(fake.served).toHaveLength(3);
    expect(fake.comments).toEqual([]);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]).toMatchObject({ headSha: SHA, status: "completed", conclusion: "failure", title: "The card could not be posted" });
    expect(fake.checkRuns[0]?.summary).toContain("The card could not be posted: GitHub answered 500");
    expect(fake.checkRuns[0]?.summary).toContain(`Redeliver the workflow_run delivery \`${id}\``);
    expect(fake.checkRuns[0]?.summary).toContain("/rescore");

    // The given-up delivery was released, so GitHub's redelivery of it is handled, not dropped as a copy.
    await deliver(id);
    expect(fake.comments).toHaveLength(1);
    const newest = [...fake.checkRuns].sort((a, b) => b.id - a.id)[0];
    expect(newest).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("does not retry an answer that will not change (422), and still leaves the failure on the check", async () => {
    fake.failNext("POST", COMMENTS, { response: { status: 422, body: { message: "Validation Failed" } } });
    await expect(deliver(randomUUID())).rejects.toThrow();
    expect(fake.served).toHaveLength(1);
    expect(fake.calls("POST", COMMENTS)).toHaveLength(1);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]?.summary).toContain("GitHub answered 422");
  });
});
