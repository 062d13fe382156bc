import { randomUUID } from "node:crypto";
import type { Probot } from "probot";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { OWNER, REPO, issueCommentCreated } from "../../harness/fake-github/adjust-payloads.js";
import { type FakePull, type FakeRepository, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { describeEachBackend } from "../support/database/database-backends.js";
import { type StoredApp, startStoredApp } from "../support/database/start-stored-app.js";
import { FaultyFakeGitHub, SERVER_ERROR } from "../faults/support/faulty-fake-github.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * A workflow dispatch is the one side effect GitHub does not de-duplicate: each one starts a GPU run.
 * Through the deployed store, it is recorded before it is sent, so the retry of a job that dispatched
 * and then failed does not dispatch again, and a dispatch whose answer was lost is not sent twice.
 */

const SHA = "d".repeat(40);
const PULL: FakePull = { number: 51, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "once", author: "writer" };
const APP_ID = 5151;
const DISPATCHES = "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches";

describeEachBackend("a /rescore's dispatch through the deployed store", (backend) => {
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub() });
  let app: StoredApp;
  let repo: FakeRepository;

  beforeAll(async () => {
    app = await startStoredApp({ fakeUrl: fake.url, appId: APP_ID, backend, octokit: "plain", maxAttempts: 3, expediteRetries: true });
  });
  afterAll(async () => await app.stop());
  beforeEach(() => {
    repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: APP_ID, pulls: [PULL], roles: { maintainer: "admin" } });
  });

  const rescore = async (): Promise<void> => {
    const payload = issueCommentCreated({ number: PULL.number, body: `/rescore ${SHA.slice(0, 12)}`, login: "maintainer" });
    await app.probot.receive({ id: randomUUID(), name: "issue_comment", payload } as Parameters<Probot["receive"]>[0]);
    await app.settled();
  };

  it("a job that dispatched and then failed is retried without dispatching again", async () => {
    // The check after the dispatch fails once: the job throws and runs again.
    fake.failNext("POST", "/repos/{owner}/{repo}/check-runs", SERVER_ERROR);
    await rescore();
    expect(fake.served).toHaveLength(1);
    expect(fake.calls("POST", DISPATCHES)).toHaveLength(1);
    expect(repo.dispatches).toHaveLength(1);
    expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "queued", title: "Scoring queued" }]);
  });

  it("a dispatch answered 500 is not sent again: the check and a reply say scoring may not have started", async () => {
    fake.failNext("POST", DISPATCHES, SERVER_ERROR);
    await rescore();
    expect(fake.calls("POST", DISPATCHES)).toHaveLength(1);
    expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "queued", title: "Scoring may not have started" }]);
    const reply = fake.comments.find((comment) => comment.body.includes("cannot tell whether the scoring workflow was started"));
    expect(reply?.body).toContain(`/rescore ${SHA.slice(0, 12)}`);
  });
});
