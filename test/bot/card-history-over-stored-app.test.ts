import { randomUUID } from "node:crypto";
import type { Probot } from "probot";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LEADERBOARD_TITLE } from "../../bot/handlers/update-leaderboard.js";
import { listCards } from "../../src/store/card-history.js";
import { LEADERBOARD_MARKER } from "../../src/history/render-leaderboard.js";
import { OWNER, REPO, pullRequestEvent, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { type FakePull, type FakeRepository, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { describeEachBackend } from "../support/database/database-backends.js";
import { type StoredApp, startStoredApp } from "../support/database/start-stored-app.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * #14 part 3 through the deployed store: every card the app posts is recorded, a pull request's card
 * shows its earlier commits' scores, and a repository with `leaderboard: true` gets one pinned issue
 * holding each open pull request's round score (the median of all its runs), kept up to date as cards land and pull
 * requests close.
 */

const APP_ID = 7373;
const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const CARD_MARKER = "<!-- speedgate -->";

describeEachBackend("the card history on the card and in the leaderboard issue", (backend) => {
  const fake = useFakeGitHub();
  let app: StoredApp;
  let repo: FakeRepository;
  const first: FakePull = { number: 31, headSha: A, headRepo: `${OWNER}/${REPO}`, headBranch: "faster-scheduler", author: "alice" };
  const second: FakePull = { number: 32, headSha: C, headRepo: `${OWNER}/${REPO}`, headBranch: "fused-kernels", author: "bob" };

  beforeAll(async () => {
    app = await startStoredApp({ fakeUrl: fake.url, appId: APP_ID, backend, octokit: "plain" });
  });
  afterAll(async () => await app.stop());

  const deliver = async (name: string, payload: unknown): Promise<void> => {
    await app.probot.receive({ id: randomUUID(), name, payload } as Parameters<Probot["receive"]>[0]);
    await app.settled();
  };
  const cardComment = (number: number): string =>
    fake.comments.find((comment) => comment.issueNumber === number && comment.body.startsWith(CARD_MARKER))?.body ?? "";
  const boardRows = (): string[] => (repo.issues[0]?.body ?? "").split("\n").filter((line) => /^\|\s+\d+ \|/.test(line));

  it("records each card, shows the earlier commits on the card, and keeps one pinned leaderboard issue up to date", async () => {
    const artifacts = {
      1001: zipScorecard(makeTestScorecard({ scores: [1.05, 1.05, 1.05] })),
      1002: zipScorecard(makeTestScorecard({ scores: [1.12, 1.12, 1.12] })),
      1003: zipScorecard(makeTestScorecard({ scores: [1.2, 1.2, 1.2] })),
    };
    repo = serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [first, second],
      config: "leaderboard: true\n",
      artifacts,
    });

    await deliver("workflow_run", workflowRunCompleted({ id: 1001, headSha: A, headBranch: first.headBranch }));
    expect(cardComment(31)).toContain("Round score 1.05×");
    expect(cardComment(31)).not.toContain("Earlier commits");
    expect(repo.issues).toMatchObject([{ title: LEADERBOARD_TITLE, pinned: true }]);
    expect(repo.issues[0]?.body.startsWith(LEADERBOARD_MARKER)).toBe(true);
    expect(boardRows()).toHaveLength(1);

    // The author pushes B; its card carries the trend of the pull request's commits, oldest first.
    first.headSha = B;
    await deliver("workflow_run", workflowRunCompleted({ id: 1002, headSha: B, headBranch: first.headBranch }));
    const trend = "Earlier commits: 1.05× (`aaaaaaa`) → **1.12×** (this commit)";
    expect(cardComment(31)).toContain(trend);
    expect(fake.checkRuns.find((check) => check.headSha === B)?.summary).toContain(trend);

    await deliver("workflow_run", workflowRunCompleted({ id: 1003, headSha: C, headBranch: second.headBranch }));
    // Still the one issue, pinned once: one row per open pull request, best first; #31 at the lower
    // median of its two commits' runs (1.05× and 1.12×), the run of A.
    expect(repo.issues).toHaveLength(1);
    expect(fake.calls("POST", "/api/graphql")).toHaveLength(1);
    expect(boardRows()).toHaveLength(2);
    expect(boardRows()[0]).toMatch(/\| #32 .*1\.20×.*`cccccccccccc`/);
    expect(boardRows()[1]).toMatch(/\| #31 .*1\.05×.*median of 2 runs of 2 commits.*`aaaaaaaaaaaa`/);

    const stored = await listCards(app.database.pool, { repository: `${OWNER}/${REPO}` });
    expect(stored.map((card) => [card.pullRequest, card.headSha, card.runId, card.roundScore])).toEqual(
      expect.arrayContaining([
        [31, A, 1001, 1.05],
        [31, B, 1002, 1.12],
        [32, C, 1003, 1.2],
      ]),
    );
    expect(stored).toHaveLength(3);

    // A closed pull request leaves the board.
    first.state = "closed";
    await deliver("pull_request", pullRequestEvent("closed", { number: 31, headSha: B, author: "alice", headBranch: first.headBranch }));
    expect(repo.issues).toHaveLength(1);
    expect(boardRows()).toHaveLength(1);
    expect(boardRows()[0]).toMatch(/\| #32 /);
  });

  it("opens no issue for a repository that did not turn the leaderboard on, and still records the card", async () => {
    const other: FakePull = { number: 33, headSha: "d".repeat(40), headRepo: `${OWNER}/${REPO}`, headBranch: "no-board", author: "carol" };
    repo = serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: APP_ID,
      pulls: [other],
      config: null,
      artifacts: { 1004: zipScorecard(makeTestScorecard({ scores: [1.3, 1.3, 1.3] })) },
    });
    await deliver("workflow_run", workflowRunCompleted({ id: 1004, headSha: other.headSha, headBranch: other.headBranch }));
    expect(cardComment(33)).toContain("Round score 1.30×");
    expect(repo.issues).toEqual([]);
    expect(fake.calls("POST", "/repos/{owner}/{repo}/issues")).toEqual([]);
    const stored = await listCards(app.database.pool, { repository: `${OWNER}/${REPO}`, pullRequest: 33 });
    expect(stored).toHaveLength(1);
  });
});
