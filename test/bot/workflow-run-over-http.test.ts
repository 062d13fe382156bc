import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle, sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";

const SHA = "a".repeat(40);
const PULL: FakePull = { number: 7, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "fast-path", author: "writer" };
const FORK_PULL: FakePull = { ...PULL, headRepo: "forker/Hello-World", author: "forker" };
const OTHER_PULL: FakePull = {
  number: 99,
  headSha: "b".repeat(40),
  headRepo: `${OWNER}/${REPO}`,
  headBranch: "other",
  author: "maintainer",
};

describe("workflow_run.completed delivered over HTTP to `npm run bot`", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  beforeEach(() => {
    bot = running();
  });

  const deliver = async (payload: unknown, id: string = randomUUID()): Promise<number> =>
    await deliverAndSettle(bot, "workflow_run", payload, id);
  const run = (id: number, extra: Partial<Parameters<typeof workflowRunCompleted>[0]> = {}) =>
    workflowRunCompleted({ id, headSha: SHA, headBranch: "fast-path", headRepo: `${OWNER}/${REPO}`, ...extra });

  it("posts the card on the pull request found by head SHA, and a success check on that SHA", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      artifacts: { 501: zipScorecard(makeTestScorecard()) },
    });
    expect(await deliver(run(501))).toBe(200);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.issueNumber).toBe(7);
    expect(fake.comments[0]?.body.startsWith("<!-- speedgate -->")).toBe(true);
    expect(fake.checkRuns).toMatchObject([{ name: "speedgate", headSha: SHA, status: "completed", conclusion: "success" }]);
    expect(fake.checkRuns[0]?.title).toContain("Round score 1.20×");
  });

  it("does not read a card from a fork's own pull_request run: the check asks a maintainer to /rescore", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [FORK_PULL],
      artifacts: { 509: zipScorecard(makeTestScorecard()) },
    });
    expect(await deliver(run(509, { headRepo: "forker/Hello-World" }))).toBe(200);
    expect(fake.comments).toEqual([]);
    expect(fake.checkRuns).toMatchObject([
      { headSha: SHA, status: "completed", conclusion: "action_required", title: "A maintainer must /rescore" },
    ]);
    expect(fake.calls("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts")).toEqual([]);
    // Found through the fork's branch: workflow_run.pull_requests is empty for forks.
    expect(fake.calls("GET", "/repos/{owner}/{repo}/pulls")).toHaveLength(1);
  });

  it("answers a wrong or missing signature with 4xx and makes no API call", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      artifacts: { 502: zipScorecard(makeTestScorecard()) },
    });
    const wrong = await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload: run(502), secret: "not-the-secret" });
    const missing = await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload: run(502), secret: null });
    expect(wrong).toBeGreaterThanOrEqual(400);
    expect(wrong).toBeLessThan(500);
    expect(missing).toBeGreaterThanOrEqual(400);
    expect(missing).toBeLessThan(500);
    expect(fake.requests).toEqual([]);
  });

  it("handles the same delivery id once: one comment, one check", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      artifacts: { 503: zipScorecard(makeTestScorecard()) },
    });
    const id = randomUUID();
    const statuses = await Promise.all([deliver(run(503), id), deliver(run(503), id)]);
    expect(statuses).toEqual([200, 200]);
    expect(await deliver(run(503), id)).toBe(200);
    expect(fake.comments).toHaveLength(1);
    expect(fake.checkRuns).toHaveLength(1);
  });

  it("posts nothing on the pull request a forged artifact names; only on the one found by head SHA", async () => {
    const forged = makeTestScorecard({
      source: { repository: `${OWNER}/${REPO}`, pullRequest: 99, headSha: OTHER_PULL.headSha, runId: "504", runUrl: null },
    });
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL, OTHER_PULL],
      artifacts: { 504: zipScorecard(forged) },
    });
    expect(await deliver(run(504))).toBe(200);
    expect(fake.comments.map((comment) => comment.issueNumber)).toEqual([7]);
    expect(fake.checkRuns.map((check) => check.headSha)).toEqual([SHA]);
    expect(fake.requests.some((request) => request.path.includes("/99"))).toBe(false);
  });

  it("keeps one comment holding the later run's card when two runs for one pull request finish together", async () => {
    const earlier = makeTestScorecard({ scores: [1.11, 1.11, 1.11] });
    const later = makeTestScorecard({ scores: [1.44, 1.44, 1.44] });
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      artifacts: { 505: zipScorecard(earlier), 506: zipScorecard(later) },
    });
    // The later run's delivery arrives first: arrival order must not decide which card stays.
    await Promise.all([deliver(run(506, { startedAt: "2026-01-01T00:10:00Z" })), deliver(run(505, { startedAt: "2026-01-01T00:05:00Z" }))]);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.body).toContain("1.44×");
    expect(fake.comments[0]?.body).not.toContain("1.11×");
    // The merge gate reads the newest check run: it must be the later run's verdict too.
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]?.title).toContain("1.44×");
  });

  it("fails the check with the run's link when the run ended without a card", async () => {
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL] });
    expect(await deliver(run(507, { conclusion: "failure" }))).toBe(200);
    expect(fake.comments).toEqual([]);
    expect(fake.checkRuns).toMatchObject([{ status: "completed", conclusion: "failure", title: "Scoring did not finish" }]);
    expect(fake.checkRuns[0]?.summary).toContain("scoring did not finish");
    expect(fake.checkRuns[0]?.summary).toContain(`https://github.com/${OWNER}/${REPO}/actions/runs/507`);
  });

  // The card scores 1.20×: a bar of 1.5 fails it, 1.0 passes it, so the check says which file was read.
  const FAILS = "gate:\n  minRoundScore: 1.5\n";
  const PASSES = "gate:\n  minRoundScore: 1.0\n";
  it.each([
    { id: 520, case: "the repository's .github/speedgate-app.yml", files: { config: FAILS }, conclusion: "failure" },
    {
      id: 521,
      case: ".github/speedgate.yml, the name before #23, when there is no .github/speedgate-app.yml",
      files: { legacyConfig: FAILS },
      conclusion: "failure",
    },
    {
      id: 522,
      case: ".github/speedgate-app.yml over .github/speedgate.yml",
      files: { config: PASSES, legacyConfig: FAILS },
      conclusion: "success",
    },
    {
      id: 523,
      case: "the owner's .github repository when the repository has no file",
      files: { ownerFiles: { ".github/speedgate-app.yml": FAILS } },
      conclusion: "failure",
    },
    {
      id: 524,
      case: "the repository's own file (even under the old name) over the owner's",
      files: { legacyConfig: PASSES, ownerFiles: { ".github/speedgate-app.yml": FAILS } },
      conclusion: "success",
    },
  ])("gates with $case", async ({ id, files, conclusion }) => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      artifacts: { [id]: zipScorecard(makeTestScorecard()) },
      ...files,
    });
    expect(await deliver(run(id))).toBe(200);
    expect(fake.checkRuns).toMatchObject([{ status: "completed", conclusion }]);
  });

  it("names the owner's file when it is the invalid one, and refuses _extends (settings from another repository)", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      artifacts: { 518: zipScorecard(makeTestScorecard()) },
      ownerFiles: { ".github/speedgate-app.yml": "_extends: someone/else\n" },
    });
    expect(await deliver(run(518))).toBe(200);
    expect(fake.checkRuns).toMatchObject([{ conclusion: "failure", title: "Invalid .github/speedgate-app.yml" }]);
    expect(fake.checkRuns[0]?.summary).toContain(`\`.github/speedgate-app.yml\` in ${OWNER}/.github (the owner's defaults) is invalid`);
    expect(fake.checkRuns[0]?.summary).toContain("_extends: unknown field");
  });

  it("says in the check what is wrong with an invalid .github/speedgate-app.yml", async () => {
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      config: "gate:\n  minRoundScore: fast\n",
      artifacts: { 508: zipScorecard(makeTestScorecard()) },
    });
    expect(await deliver(run(508))).toBe(200);
    expect(fake.comments).toEqual([]);
    expect(fake.checkRuns).toMatchObject([{ conclusion: "failure", title: "Invalid .github/speedgate-app.yml" }]);
    expect(fake.checkRuns[0]?.summary).toContain("`.github/speedgate-app.yml` on the default branch is invalid");
    expect(fake.checkRuns[0]?.summary).toContain("gate.minRoundScore");
    expect(fake.checkRuns[0]?.summary).toContain("expected a speedup greater than 0");
  });
});
