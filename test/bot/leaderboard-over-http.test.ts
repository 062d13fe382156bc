import { beforeEach, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle } from "../../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";

/*
 * Issue #24, point 6: the leaderboard kept each pull request's best round score ever, so re-running
 * the same commit until the noise came out high (a lucky 1.3× among runs around 1.0×) put it on top.
 * Then it ranked a pull request by its newest commit's runs, so an author whose commits are scored
 * automatically could push no-op commits, each a fresh draw, until one was lucky. Now a pull request
 * stands at the lower median of all its runs, every commit's. Played against `npm run bot` with
 * `leaderboard: true`.
 */

const SHA = "a7".repeat(20);
const NEXT = "b8".repeat(20);

describe("the leaderboard under re-runs of one commit (`npm run bot`)", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  beforeEach(() => {
    bot = running();
  });

  it("shows the median of the pull request's runs, not the lucky one, and a new commit adds to them", async () => {
    const pull: FakePull = { number: 61, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "lucky", author: "writer" };
    const scores = [1.0, 1.3, 1.01, 0.99, 1.02];
    const artifacts = Object.fromEntries(
      scores.map((score, index) => [7001 + index, zipScorecard(makeTestScorecard({ scores: [score, score, score] }))]),
    );
    artifacts[7100] = zipScorecard(makeTestScorecard({ scores: [1.15, 1.15, 1.15] }));
    const repo = serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [pull],
      config: "leaderboard: true\n",
      artifacts,
    });
    const rows = (): string[] => (repo.issues[0]?.body ?? "").split("\n").filter((line) => /^\|\s+\d+ \|/.test(line));

    for (const [index] of scores.entries()) {
      const run = workflowRunCompleted({
        id: 7001 + index,
        headSha: SHA,
        headBranch: pull.headBranch,
        startedAt: `2026-01-01T0${index}:00:00Z`,
      });
      expect(await deliverAndSettle(bot, "workflow_run", run)).toBe(200);
      if (index === 1) expect(rows()[0]).toMatch(/\[1\.00×\]\([^)]+\/runs\/7001\) \(median of 2 runs\)/);
    }
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toMatch(/\[1\.01×\]\([^)]+\/runs\/7003\) \(median of 5 runs\)/);
    expect(repo.issues[0]?.body).not.toContain("1.30×");

    // The author pushes a new commit scored 1.15×: one more run of six, which leaves the median where it was.
    pull.headSha = NEXT;
    expect(
      await deliverAndSettle(
        bot,
        "workflow_run",
        workflowRunCompleted({ id: 7100, headSha: NEXT, headBranch: pull.headBranch, startedAt: "2026-01-01T09:00:00Z" }),
      ),
    ).toBe(200);
    expect(rows()[0]).toMatch(/\[1\.01×\]\([^)]+\/runs\/7003\) \(median of 6 runs of 2 commits\)/);
    expect(repo.issues[0]?.body).not.toContain("1.15×");
  }, 120_000);
});
