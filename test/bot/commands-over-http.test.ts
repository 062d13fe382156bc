import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import {
  OWNER,
  REPO,
  checkRunRerequested,
  issueCommentCreated,
  pullRequestEvent,
  workflowRunCompleted,
} from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { DEFAULT_BASE_SHA, type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";

const SHA = "c".repeat(40);
const BASE = "b".repeat(40);
const PULL: FakePull = { number: 12, headSha: SHA, headRepo: "outsider/Hello-World", headBranch: "patch-1", author: "outsider" };
const ROLES = { maintainer: "maintain", writer: "write", outsider: "read" };
const AUTO = "trigger: auto\n";

describe("pull_request, issue_comment and check_run delivered over HTTP to `npm run bot`", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  beforeEach(() => {
    bot = running();
  });

  const deliver = async (event: string, payload: unknown): Promise<number> => await deliverAndSettle(bot, event, payload, randomUUID());

  it(
    "pull_request.opened with trigger auto dispatches scoring of the head " + "SHA against the base SHA for an author who may write",
    async () => {
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: bot.appId,
        config: AUTO,
        pulls: [{ ...PULL, author: "writer", baseSha: BASE }],
        roles: ROLES,
      });
      expect(await deliver("pull_request", pullRequestEvent("opened", { number: 12, headSha: SHA, author: "writer", baseSha: BASE }))).toBe(
        200,
      );
      expect(repo.dispatches).toEqual([
        { workflow: "speedgate.yml", ref: "main", inputs: { pr: "12", sha: SHA, base: BASE }, runId: expect.any(Number) as number },
      ]);
      expect(fake.checkRuns).toMatchObject([
        { headSha: SHA, status: "queued", externalId: `speedgate:pr=12:run=${repo.dispatches[0]?.runId}` },
      ]);
    },
  );

  it(
    "dispatches a workflow written before base/head scoring (inputs pr and " + "sha only) again without base when GitHub refuses the input",
    async () => {
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: bot.appId,
        config: AUTO,
        pulls: [{ ...PULL, author: "writer" }],
        roles: ROLES,
        workflowInputs: ["pr", "sha"],
      });
      expect(await deliver("pull_request", pullRequestEvent("opened", { number: 12, headSha: SHA, author: "writer", baseSha: BASE }))).toBe(
        200,
      );
      expect(repo.dispatches).toEqual([
        { workflow: "speedgate.yml", ref: "main", inputs: { pr: "12", sha: SHA }, runId: expect.any(Number) as number },
      ]);
      expect(fake.checkRuns).toMatchObject([
        { headSha: SHA, status: "queued", externalId: `speedgate:pr=12:run=${repo.dispatches[0]?.runId}` },
      ]);
    },
  );

  it("pull_request.opened with trigger auto asks for a maintainer when the author may not write", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, config: AUTO, pulls: [PULL], roles: ROLES });
    expect(await deliver("pull_request", pullRequestEvent("opened", { number: 12, headSha: SHA, author: "outsider" }))).toBe(200);
    expect(repo.dispatches).toEqual([]);
    expect(fake.checkRuns).toMatchObject([
      { headSha: SHA, status: "completed", conclusion: "action_required", title: "A maintainer must /rescore" },
    ]);
    expect(fake.checkRuns[0]?.summary).toContain("/rescore");
  });

  it("pull_request.synchronize with the default trigger queues the check on the new head and dispatches nothing", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], groups: ["app", "config", "checks"] });
    expect(await deliver("pull_request", pullRequestEvent("synchronize", { number: 12, headSha: SHA, author: "outsider" }))).toBe(200);
    expect(repo.dispatches).toEqual([]);
    expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "queued", conclusion: null }]);
  });

  it("/rescore from a maintainer reacts 👀, dispatches the head SHA and queues the check", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], roles: ROLES });
    const payload = issueCommentCreated({ number: 12, body: "/rescore please\nthanks", login: "maintainer", commentId: 8801 });
    expect(await deliver("issue_comment", payload)).toBe(200);
    expect(repo.reactions).toEqual([{ commentId: 8801, content: "eyes" }]);
    // The base as the pull request has it when the maintainer asks: the run scores against exactly that commit.
    expect(repo.dispatches).toMatchObject([{ inputs: { pr: "12", sha: SHA, base: PULL.baseSha ?? DEFAULT_BASE_SHA } }]);
    expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "queued" }]);
    // The reply names the exact commit being scored.
    expect(fake.comments.map((comment) => comment.body)).toEqual([
      // When the head arrived depends on the deliveries of the tests before (the app records them).
      expect.stringMatching(
        new RegExp(
          `^Scoring ${SHA} \\(the head when you commented: it became the head [^)]+ before your comment[^)]*\\): ` +
            `https://github.com/${OWNER}/${REPO}/actions/runs/${repo.dispatches[0]?.runId}$`,
        ),
      ),
    ]);
  });

  it("/rescore from a read-only commenter dispatches nothing and gets a reply saying who may", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], roles: ROLES });
    expect(await deliver("issue_comment", issueCommentCreated({ number: 12, body: "/rescore", login: "outsider" }))).toBe(200);
    expect(repo.dispatches).toEqual([]);
    expect(repo.reactions).toEqual([]);
    expect(fake.checkRuns).toEqual([]);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.body).toContain("only people with write permission or higher");
  });

  it("ignores /rescore from a bot (the app's own comment included), commands not on the first line, and plain issues", async () => {
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], roles: ROLES });
    const statuses = await Promise.all([
      deliver("issue_comment", issueCommentCreated({ number: 12, body: "/rescore", login: "speedgate[bot]", type: "Bot" })),
      deliver(
        "issue_comment",
        issueCommentCreated({ number: 12, body: "<!-- speedgate -->\n/rescore", login: "speedgate[bot]", type: "Bot" }),
      ),
      deliver("issue_comment", issueCommentCreated({ number: 12, body: "/rescorex", login: "maintainer" })),
      deliver("issue_comment", issueCommentCreated({ number: 12, body: "looks good\n/rescore", login: "maintainer" })),
      deliver("issue_comment", issueCommentCreated({ number: 3, body: "/rescore", login: "maintainer", onPullRequest: false })),
    ]);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(fake.requests).toEqual([]);
  });

  it("check_run.rerequested by a maintainer rescores the pull request's current head", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], roles: ROLES });
    expect(await deliver("check_run", checkRunRerequested({ headSha: SHA, login: "maintainer" }))).toBe(200);
    expect(repo.dispatches).toMatchObject([{ inputs: { pr: "12", sha: SHA } }]);
    expect(fake.checkRuns).toMatchObject([{ headSha: SHA, status: "queued" }]);
  });

  it("check_run.rerequested by a read-only user dispatches nothing and replies on the pull request", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], roles: { ...ROLES, reader: "read" } });
    expect(await deliver("check_run", checkRunRerequested({ headSha: SHA, login: "reader" }))).toBe(200);
    expect(repo.dispatches).toEqual([]);
    expect(fake.comments).toMatchObject([{ issueNumber: 12 }]);
    expect(fake.comments[0]?.body).toContain("only people with write permission or higher");
  });

  it("posts a dispatched run's card on the pull request the app bound it to, and ignores an unbound one", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], roles: ROLES });
    await deliver("issue_comment", issueCommentCreated({ number: 12, body: "/rescore", login: "maintainer" }));
    const runId = repo.dispatches[0]?.runId ?? 0;
    repo.artifacts.set(runId, zipScorecard(makeTestScorecard({ scores: [0.9, 0.9, 0.9] })));
    repo.artifacts.set(runId + 100, zipScorecard(makeTestScorecard()));
    const dispatched = (id: number) =>
      workflowRunCompleted({ id, event: "workflow_dispatch", headSha: "d".repeat(40), headBranch: "main", title: `speedgate #12 ${SHA}` });
    // A run nobody bound (started by hand with a made-up title) must not land on the pull request.
    expect(await deliver("workflow_run", dispatched(runId + 100))).toBe(200);
    expect(fake.comments.filter((comment) => comment.body.startsWith("<!-- speedgate -->"))).toEqual([]);
    expect(await deliver("workflow_run", dispatched(runId))).toBe(200);
    const cards = fake.comments.filter((comment) => comment.body.startsWith("<!-- speedgate -->"));
    expect(cards).toMatchObject([{ issueNumber: 12 }]);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]).toMatchObject({ headSha: SHA, status: "completed", conclusion: "failure" });
    expect(fake.checkRuns[0]?.title).toContain("Round score 0.90×");
  });
});
