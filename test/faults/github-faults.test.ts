import { randomUUID } from "node:crypto";
import type { Probot } from "probot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { pgliteBackend } from "../support/database/database-backends.js";
import { type StoredApp, startStoredApp } from "../support/database/start-stored-app.js";
import { createTestProbot } from "../../harness/fake-github/create-test-probot.js";
import { FaultyFakeGitHub, type InjectedFault, SERVER_ERROR, secondaryRateLimit } from "./support/faulty-fake-github.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * Faults, nothing lost: the GitHub rows. The app runs in-process with the Octokit it is deployed
 * with (bot/app-octokit.ts, through harness/fake-github/create-test-probot.ts), against the local
 * GitHub with faults injected per route; each row checks that the card comment lands exactly once
 * and the check run once. probot.receive settles when the handler is done, so no row waits on time.
 *
 * Covered elsewhere over HTTP against `npm run bot` (test/bot/workflow-run-over-http.test.ts):
 *   - the same webhook delivered twice (concurrently and again later): one comment, one check
 *   - two runs for one pull request finishing together: one comment holding the later run's card,
 *     and the later run's verdict as the check
 * Both are repeated below with a fault on top, where the retries widen the window for a race.
 */

const SHA = "c".repeat(40);
const PULL: FakePull = { number: 12, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "faster", author: "writer" };
const APP_ID = 4343;
const COMMENTS = "/repos/{owner}/{repo}/issues/{issue_number}/comments";
const CHECK_RUNS = "/repos/{owner}/{repo}/check-runs";

interface GitHubFaultRow {
  name: string;
  faults: Array<{ method: string; template: string; fault: InjectedFault }>;
}

const rows: GitHubFaultRow[] = [
  { name: "creating the comment answers 500 once", faults: [{ method: "POST", template: COMMENTS, fault: SERVER_ERROR }] },
  { name: "listing the comments answers 500 once", faults: [{ method: "GET", template: COMMENTS, fault: SERVER_ERROR }] },
  { name: "creating the check run answers 500 once", faults: [{ method: "POST", template: CHECK_RUNS, fault: SERVER_ERROR }] },
  {
    name: "creating the comment hits a secondary rate limit as 429 with retry-after: 1",
    faults: [{ method: "POST", template: COMMENTS, fault: secondaryRateLimit(429) }],
  },
  {
    name: "creating the comment hits a secondary rate limit as 403 with retry-after: 1",
    faults: [{ method: "POST", template: COMMENTS, fault: secondaryRateLimit(403) }],
  },
  {
    name: "listing the comments hits a secondary rate limit as 403 with retry-after: 1",
    faults: [{ method: "GET", template: COMMENTS, fault: secondaryRateLimit(403) }],
  },
  {
    name: "creating the check run hits a secondary rate limit twice (403, retry-after: 1)",
    faults: [
      { method: "POST", template: CHECK_RUNS, fault: secondaryRateLimit(403) },
      { method: "POST", template: CHECK_RUNS, fault: secondaryRateLimit(403) },
    ],
  },
];

describe("faults in the GitHub API: the app's card comment lands once", () => {
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub() });
  let probot: Probot;

  beforeAll(async () => {
    probot = await createTestProbot({ fakeUrl: fake.url, appId: APP_ID, octokit: "deployed", logLevel: "fatal" });
  });

  /** Resolves when the app has handled the delivery; rejects with the handler's error (GitHub would see a 5xx). */
  const deliver = async (payload: unknown, id: string = randomUUID()): Promise<void> =>
    await probot.receive({ id, name: "workflow_run", payload } as Parameters<Probot["receive"]>[0]);
  const run = (id: number, startedAt = "2026-01-01T00:00:00Z") =>
    workflowRunCompleted({ id, headSha: SHA, headBranch: PULL.headBranch, headRepo: `${OWNER}/${REPO}`, startedAt });

  function expectOneCardAndCheck(contains: string): void {
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.issueNumber).toBe(PULL.number);
    expect(fake.comments[0]?.body).toContain(contains);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]).toMatchObject({ headSha: SHA, status: "completed", conclusion: "success" });
  }

  // The app handles a workflow run's attempt once, whatever the delivery id: each row is its own run.
  let rowRun = 7_100;
  async function playRow(row: GitHubFaultRow): Promise<void> {
    const runId = ++rowRun;
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      artifacts: { [runId]: zipScorecard(makeTestScorecard()) },
    });
    for (const { method, template, fault } of row.faults) fake.failNext(method, template, fault);
    await deliver(run(runId));
    expect(fake.served).toHaveLength(row.faults.length);
    expectOneCardAndCheck("1.20×");
  }

  it.each(rows)("$name, then recovers", playRow);

  // plugin-retry repeats the POST whose response was lost; upsertCardComment lists again after a
  // create and folds the second comment into the first.
  it("answers 502 after it created the comment (a lost response): still one comment, the first one", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      artifacts: { 703: zipScorecard(makeTestScorecard()) },
    });
    fake.failNext("POST", COMMENTS, { response: { status: 502, body: { message: "Bad Gateway" } }, afterEffect: true });
    await deliver(run(703));
    expect(fake.served).toEqual([`POST ${COMMENTS} -> 502`]);
    expect(fake.calls("POST", COMMENTS)).toHaveLength(2);
    expect(fake.calls("DELETE", "/repos/{owner}/{repo}/issues/comments/{comment_id}")).toHaveLength(1);
    expectOneCardAndCheck("1.20×");
  });

  it("delivers the same webhook twice while the API answers 500: one comment, one check", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      artifacts: { 704: zipScorecard(makeTestScorecard()) },
    });
    fake.failNext("POST", COMMENTS, SERVER_ERROR);
    const id = randomUUID();
    await Promise.all([deliver(run(704), id), deliver(run(704), id)]);
    expectOneCardAndCheck("1.20×");
  });

  it("finishes two runs for one pull request together while the API answers 500: one comment with the later card", async () => {
    const earlier = makeTestScorecard({ scores: Array.from({ length: 12 }, () => 1.11) });
    const later = makeTestScorecard({ scores: Array.from({ length: 12 }, () => 1.44) });
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [PULL],
      artifacts: { 705: zipScorecard(earlier), 706: zipScorecard(later) },
    });
    fake.failNext("POST", COMMENTS, SERVER_ERROR);
    fake.failNext("GET", COMMENTS, SERVER_ERROR);
    await Promise.all([deliver(run(706, "2026-01-01T00:10:00Z")), deliver(run(705, "2026-01-01T00:05:00Z"))]);
    expectOneCardAndCheck("1.44×");
    expect(fake.comments[0]?.body).not.toContain("1.11×");
    expect(fake.checkRuns[0]?.title).toContain("1.44×");
  });
});

describe("faults in the GitHub API longer than Octokit's retries: the queue tries the card again", () => {
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub() });
  let app: StoredApp;

  beforeAll(async () => {
    // The deployed Octokit and store; the queue's own wait (e^1 s after a failure) is cut short.
    app = await startStoredApp({ fakeUrl: fake.url, appId: APP_ID, backend: pgliteBackend(), octokit: "deployed", expediteRetries: true });
  });
  afterAll(async () => await app.stop());

  it(
    "is down through every retry of one attempt: the job runs again and " + "the card lands once; a redelivery then writes nothing",
    async () => {
      serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: APP_ID,
        pulls: [PULL],
        artifacts: { 702: zipScorecard(makeTestScorecard()) },
      });
      // One try and three retries (plugin-retry's default) all fail: the job's first attempt fails.
      fake.failNext("POST", COMMENTS, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR, SERVER_ERROR);
      const id = randomUUID();
      const payload = workflowRunCompleted({ id: 702, headSha: SHA, headBranch: PULL.headBranch, headRepo: `${OWNER}/${REPO}` });
      await app.probot.receive({ id, name: "workflow_run", payload } as Parameters<Probot["receive"]>[0]);
      await app.settled();
      expect(fake.served).toHaveLength(4);
      expect(fake.comments).toHaveLength(1);
      expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "completed", conclusion: "success" }]);
      // A redelivery of the handled delivery is a copy: nothing more is written.
      const before = fake.requests.length;
      await app.probot.receive({ id, name: "workflow_run", payload } as Parameters<Probot["receive"]>[0]);
      await app.settled();
      expect(fake.requests).toHaveLength(before);
      expect(fake.comments).toHaveLength(1);
    },
  );
});
