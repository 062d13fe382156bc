import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { OWNER, REPO, issueCommentCreated, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { makeScenarioRound } from "../support/make-scenario-round.js";
import { deliverAndSettle, sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { findRenderedReferences } from "../../harness/find-rendered-references.js";

/*
 * Issue #12, points 2, 9, 10, 12 and 13: what a card from a run can do to the comment and the check
 * the app posts, performed against `npm run bot` over HTTP with the GitHub fake.
 */

const SHA = "f".repeat(40);
const PULL: FakePull = { number: 40, headSha: SHA, headRepo: `${OWNER}/${REPO}`, headBranch: "speedup", author: "writer" };
const HOSTILE =
  "@octocat @org/team #12 octo/repo#34 GH-56 https://github.com/octo/repo/issues/7 www.github.com/octo/repo/pull/8 <!-- hidden --> -->";

function failure(logTail: string[]): NonNullable<Scorecard["failure"]> {
  return {
    engine: "candidate",
    stage: "benchmark",
    kind: "cuda_oom",
    label: "out of memory",
    summary: "ran out of GPU memory",
    hint: "lower the batch size",
    exitCode: 1,
    signal: null,
    logTail,
  };
}

const isCard = (body: string): boolean => body.startsWith("<!-- speedgate -->");
/** Twelve prompts of one score: enough for a verdict (gate.minPrompts is 10 by default). */
const twelve = (score: number): number[] => Array.from({ length: 12 }, () => score);
const count = (text: string, part: string): number => text.split(part).length - 1;

describe("score cards against the comment and the check (`npm run bot`)", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  beforeEach(() => {
    bot = running();
  });
  const deliver = async (event: string, payload: unknown): Promise<number> => await deliverAndSettle(bot, event, payload, randomUUID());
  const run = (id: number, startedAt: string) =>
    workflowRunCompleted({ id, headSha: SHA, headBranch: PULL.headBranch, headRepo: `${OWNER}/${REPO}`, startedAt });

  it("point 2: a run stamp printed by the engine neither freezes the comment nor leaves the next check queued", async () => {
    const forged = `<!-- speedgate-run ${JSON.stringify({ runId: 999_999_999, startedAt: "9999-12-31T00:00:00Z" })} -->`;
    const first = makeTestScorecard({ scores: [0.9, 0.9, 0.9], failure: failure(["loading weights", forged, "CUDA out of memory"]) });
    const later = makeTestScorecard({ scores: twelve(1.3) });
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      artifacts: { 601: zipScorecard(first), 602: zipScorecard(later) },
    });
    expect(await deliver("workflow_run", run(601, "2026-01-01T00:05:00Z"))).toBe(200);
    const body = fake.comments[0]?.body ?? "";
    // Only the app's own two comments (the marker and its stamp): the engine's line is shown, but cannot be one.
    expect(count(body, "<!--")).toBe(2);
    expect(body.split("\n")[1]).toBe(`<!-- speedgate-run ${JSON.stringify({ runId: 601, startedAt: "2026-01-01T00:05:00Z" })} -->`);
    expect(await deliver("workflow_run", run(602, "2026-01-01T00:10:00Z"))).toBe(200);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]?.body).toContain("1.30×");
    expect(fake.checkRuns.map((check) => [check.status, check.conclusion])).toEqual([
      ["completed", "failure"],
      ["completed", "success"],
    ]);
  });

  it("point 2: an older run's card is dropped from the comment, but its own queued check is still concluded", async () => {
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], roles: { maintainer: "admin" } });
    expect(await deliver("issue_comment", issueCommentCreated({ number: PULL.number, body: "/rescore", login: "maintainer" }))).toBe(200);
    const runId = repo.dispatches[0]?.runId ?? 0;
    // Meanwhile a newer run's card reached the comment.
    const newer = { runId: runId + 50, startedAt: "2099-01-01T00:00:00Z" };
    fake.comments.push({
      id: fake.nextId(),
      issueNumber: PULL.number,
      body: `<!-- speedgate -->\n<!-- speedgate-run ${JSON.stringify(newer)} -->\nnewer card`,
      login: "speedgate[bot]",
      type: "Bot",
      createdAt: fake.now(),
    });
    repo.artifacts.set(runId, zipScorecard(makeTestScorecard({ scores: twelve(1.2) })));
    const dispatched = workflowRunCompleted({
      id: runId,
      event: "workflow_dispatch",
      headSha: "9".repeat(40),
      headBranch: "main",
      title: `speedgate #${PULL.number} ${SHA}`,
      startedAt: "2026-06-01T00:00:00Z",
    });
    expect(await deliver("workflow_run", dispatched)).toBe(200);
    expect(fake.comments.filter((comment) => isCard(comment.body)).map((comment) => comment.body)).toEqual([
      expect.stringContaining("newer card"),
    ]);
    expect(fake.checkRuns).toHaveLength(1);
    expect(fake.checkRuns[0]).toMatchObject({
      status: "completed",
      conclusion: "success",
      externalId: `speedgate:pr=${PULL.number}:run=${runId}`,
    });
    expect(fake.checkRuns[0]?.title).toContain("an older run");
  });

  it("point 9: engine text mentions nobody and references nothing, in the comment or the check", async () => {
    const card = makeTestScorecard({ scores: [1.2, 0.8, 1.1], failure: failure([`error from ${HOSTILE}`, "plain line"]) });
    const hostile: Scorecard = {
      ...card,
      engine: "sglang @octocat #12 GH-56",
      settings: { ...card.settings, model: HOSTILE },
      provenance: { ...card.provenance, runner: HOSTILE, gpu: HOSTILE, baselineImage: `img ${HOSTILE}` },
      failure: { ...failure([`error from ${HOSTILE}`]), label: `oom ${HOSTILE}`, summary: HOSTILE, hint: HOSTILE },
      prompts: card.prompts.map((prompt) => ({ ...prompt, id: `${prompt.id} @octocat #9`, reason: HOSTILE })),
    };
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], artifacts: { 611: zipScorecard(hostile) } });
    expect(await deliver("workflow_run", run(611, "2026-01-01T00:00:00Z"))).toBe(200);
    const comment = fake.comments[0]?.body ?? "";
    const summary = fake.checkRuns[0]?.summary ?? "";
    // The text is still there for people to read…
    expect(comment).toContain("octocat");
    expect(comment).toContain("octo/repo");
    // …but a CommonMark + GFM rendering of it holds no mention, reference or issue link, and no HTML comment of the engine's.
    expect(findRenderedReferences(comment)).toEqual([]);
    expect(findRenderedReferences(summary)).toEqual([]);
    expect(count(comment, "<!--")).toBe(2);
    expect(count(summary, "<!--")).toBe(1);
  });

  it("point 10: a card of CJK and progress-bar lines is fitted to the check's limit in bytes, not lost", async () => {
    const line = (index: number): string => `${String(index).padStart(4, "0")} 加载模型权重 ██████████████████████████ 100% 完成`;
    const card = makeTestScorecard({ scores: twelve(1.2), failure: failure(Array.from({ length: 2_000 }, (_, index) => line(index))) });
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], artifacts: { 621: zipScorecard(card) } });
    expect(await deliver("workflow_run", run(621, "2026-01-01T00:00:00Z"))).toBe(200);
    const check = fake.checkRuns[0];
    expect(check?.title).not.toBe("The card could not be posted");
    // Concluded with the card, not lost: a failure, since a candidate that failed never passes the gate.
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(Buffer.byteLength(check?.summary ?? "", "utf8")).toBeLessThanOrEqual(65_535);
    expect(check?.summary).toContain("older lines left out to fit GitHub's size limit");
    expect([...(fake.comments[0]?.body ?? "")].length).toBeLessThanOrEqual(65_536);
  });

  it("point 12: the comment and the check say which changed files patch-paths left out", async () => {
    const card = makeTestScorecard({
      scores: twelve(1.3),
      source: {
        repository: `${OWNER}/${REPO}`,
        pullRequest: PULL.number,
        headSha: SHA,
        runId: "631",
        runUrl: null,
        patchFilter: { globs: ["python/**"], leftOut: ["csrc/attention.cu", "python/engine.py -> docs/engine.py"], leftOutTotal: 2 },
      },
    });
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], artifacts: { 631: zipScorecard(card) } });
    expect(await deliver("workflow_run", run(631, "2026-01-01T00:00:00Z"))).toBe(200);
    for (const text of [fake.comments[0]?.body ?? "", fake.checkRuns[0]?.summary ?? ""]) {
      expect(text).toContain("2 changed files were not scored");
      expect(text).toContain("- `csrc/attention.cu`");
      expect(text).toContain("- `python/engine.py` -&gt; `docs/engine.py`");
    }
    expect(fake.checkRuns[0]?.title).toMatch(
      /^✅ Round score 1\.30×; the interval's low end 1\.\d\d× clears the gate's 1\.00×; 2 changed files not scored \(patch-paths\)$/,
    );
  });

  it(
    "a card whose top level says every scenario passed over one that " + "failed: the check is the scenarios' verdict, not the card's",
    async () => {
      const card = makeScenarioRound([
        { name: "decode-c1", speedup: 1.2 },
        { name: "prefill-c32", speedup: 0.9, minRoundScore: 0.8 },
      ]);
      // Written as the pull request's own workflow could write it: the failing scenario's bar lowered, the top level "passed".
      const forged: Scorecard = { ...card, gate: { ...card.gate, passed: true, reason: "2 of 2 scenarios passed", reasons: [] } };
      serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [PULL], artifacts: { 651: zipScorecard(forged) } });
      expect(await deliver("workflow_run", run(651, "2026-01-01T00:00:00Z"))).toBe(200);
      expect(fake.checkRuns).toMatchObject([{ status: "completed", conclusion: "failure" }]);
      expect(fake.checkRuns[0]?.title).toBe("❌ 1 of 2 scenarios passed; improved: decode-c1; regressed: prefill-c32; failed: prefill-c32");
      expect(fake.comments[0]?.body).toContain("1 of 2 scenarios passed");
      expect(fake.comments[0]?.body).not.toContain("2 of 2 scenarios passed");
    },
  );

  it("a card that leaves out the scenario the repository declares, or every scenario: the check fails and names it", async () => {
    const config = ["gate:", "  scenarios:", "    decode-c1: { minRoundScore: 1.0 }", "    prefill-c32: { minRoundScore: 0.8 }", ""].join(
      "\n",
    );
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "prefill-c32", speedup: 0.9 },
    ]);
    const { scenarios: _all, ...withoutScenarios } = card;
    const dropped: Scorecard = { ...card, scenarios: card.scenarios?.slice(0, 1) };
    serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL],
      config,
      artifacts: { 661: zipScorecard(dropped), 662: zipScorecard(withoutScenarios) },
    });
    expect(await deliver("workflow_run", run(661, "2026-01-01T00:00:00Z"))).toBe(200);
    expect(fake.checkRuns[0]).toMatchObject({
      status: "completed",
      conclusion: "failure",
      title: "❌ 1 of 2 scenarios passed; improved: decode-c1; missing: prefill-c32",
    });
    expect(fake.checkRuns[0]?.summary).toContain(
      "the card has no scenario prefill-c32, which the repository's app config declares (`gate.scenarios`)",
    );
    expect(await deliver("workflow_run", run(662, "2026-01-01T00:10:00Z"))).toBe(200);
    expect(fake.checkRuns[1]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(fake.checkRuns[1]?.summary).toContain(
      "the repository's app config declares scenarios decode-c1, prefill-c32 (`gate.scenarios`) and the card has none",
    );
  });

  it("point 13: while a card at the app's limits is being read, the app answers /ping and handles another delivery", async () => {
    const promptCount = 20_000;
    const big = makeTestScorecard({ scores: Array.from({ length: promptCount }, (_, index) => 0.5 + (index % 100) / 100) });
    const maximal: Scorecard = {
      ...big,
      prompts: big.prompts.map((prompt) => ({ ...prompt, reason: `note ${"r".repeat(1_000)}` })),
      failure: failure(Array.from({ length: 2_000 }, (_, index) => `${index} ${"x".repeat(3_990)}`)),
    };
    const other: FakePull = { ...PULL, number: 41, headSha: "e".repeat(40), headBranch: "other" };
    const repo = serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: bot.appId,
      pulls: [PULL, other],
      roles: { maintainer: "admin" },
      artifacts: { 641: zipScorecard(maximal) },
    });
    const bigDelivery = deliver("workflow_run", run(641, "2026-01-01T00:00:00Z"));
    // Awaited below; a failed expectation before then must not leave it an unhandled rejection.
    bigDelivery.catch(() => undefined);
    await bot.waitFor(/reading the card of run 641 off the event loop/);
    const finished = /read the card of run 641"/;
    const ping = await fetch(`http://127.0.0.1:${bot.port}/ping`);
    expect(await ping.text()).toBe("PONG");
    expect(bot.output()).not.toMatch(finished);
    // Another delivery is answered (its work stored) while the card is still being read, and its job is
    // handled beside it: its first request to GitHub comes before the worker is done. How long the whole
    // /rescore takes against a loaded fake is not the point (on a busy machine it can outlast the read).
    const requestsBefore = fake.requests.length;
    const rescore = randomUUID();
    expect(
      await sendWebhook(bot.webhookUrl, {
        event: "issue_comment",
        payload: issueCommentCreated({ number: other.number, body: "/rescore", login: "maintainer" }),
        id: rescore,
        secret: bot.secret,
      }),
    ).toBe(200);
    await fake.waitUntil(() => fake.requests.length > requestsBefore);
    expect(bot.output()).not.toMatch(finished);
    await bot.settled(rescore);
    expect(repo.dispatches).toMatchObject([{ inputs: { pr: "41" } }]);
    // The big delivery was answered once its work was stored; it settles when the card is posted.
    expect(await bigDelivery).toBe(200);
    await bot.waitFor(finished);
    await fake.waitUntil(() => fake.checkRuns.some((check) => check.headSha === SHA && check.status === "completed"));
    expect(fake.comments.filter((comment) => isCard(comment.body))).toMatchObject([{ issueNumber: PULL.number }]);
    expect(fake.checkRuns.find((check) => check.headSha === SHA)?.conclusion).toBe("failure");
  }, 180_000);
});
