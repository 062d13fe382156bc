import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, pushEvent, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { FakeGitHub } from "../../harness/fake-github/fake-github-server.js";
import { zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle, sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { type FakeRepository, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { mergeRunTitle } from "../../src/github/dispatch-watch-step.js";
import { silentLogger } from "../../src/logger.js";
import { listMainRoundCardIds } from "../../src/store/card-documents.js";
import { listMainSeries } from "../../src/store/main-series.js";
import { openDatabase } from "../../src/store/open-database.js";
import { type BotProcess, startBotProcess } from "../support/fake-github/start-bot-process.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { mainWithMerges, watchStepCard } from "../support/watch/main-with-merges.js";

/*
 * #41, watch.everyMerge: each push to main dispatches the watch workflow once per new first-parent commit,
 * that commit against its first parent, and the app reads each round back, judges the merge and reports a
 * regression, over HTTP with signed push and workflow_run deliveries against the fake GitHub. The runner is
 * played by the test: each dispatched round's card scores its head against its base at the levels main's
 * history has, with a runner's tight spread (as bisection-over-http.test.ts does).
 */

const MERGES = 16;
const GUILTY = 11;
const INPUTS = ["good", "bad", "base", "head", "step"];
const ZERO = "0".repeat(40);

const config = (everyMerge: boolean | null): string =>
  [
    "watch:",
    "  workflow: speedgate-watch.yml",
    "  maxDrift: 0.97",
    "  maxRepeats: 2",
    ...(everyMerge === null ? [] : [`  everyMerge: ${everyMerge}`]),
    "",
  ].join("\n");

type Level = (index: number) => number;
/** decode's speed at main's commit `index`: merge 11 makes it 8% slower; chat never moves. */
const guiltyLevel: Level = (index) => (index >= GUILTY ? 0.92 : 1);

function serve(fake: FakeGitHub, appId: number, everyMerge: boolean | null): { repo: FakeRepository; main: string[] } {
  const { commits, main, pulls } = mainWithMerges(MERGES);
  const repo = serveRepository(fake, {
    owner: OWNER,
    repo: REPO,
    appId,
    config: config(everyMerge),
    commits,
    pulls,
    workflows: ["speedgate-watch.yml"],
    workflowInputs: INPUTS,
  });
  return { repo, main };
}

/** Plays the runner: every dispatched round not run yet gets its card, until the app dispatches nothing new. */
async function runDispatched(bot: BotProcess, repo: FakeRepository, main: readonly string[], level: Level, answered: Set<number>) {
  for (;;) {
    const next = repo.dispatches.find((dispatch) => !answered.has(dispatch.runId));
    if (!next) return;
    answered.add(next.runId);
    repo.artifacts.set(next.runId, zipScorecard(watchStepCard(main, next.inputs.base ?? "", next.inputs.head ?? "", level)));
    const payload = workflowRunCompleted({
      id: next.runId,
      headSha: main.at(-1) ?? "",
      headBranch: "main",
      event: "workflow_dispatch",
      title: next.inputs.step ?? "",
      workflowFile: "speedgate-watch.yml",
    });
    expect(await deliverAndSettle(bot, "workflow_run", payload, randomUUID())).toBe(200);
  }
}

describe("watch.everyMerge over HTTP (`npm run bot`, signed push deliveries, the fake GitHub)", () => {
  const fake = new FakeGitHub();
  beforeAll(async () => await fake.start());
  afterAll(async () => await fake.stop());

  // Two app starts in turn: each one's first start can take a minute on a loaded runner.
  it("dispatches nothing while everyMerge is off or unset", { timeout: 240_000 }, async () => {
    fake.reset();
    for (const [appId, everyMerge] of [
      [4251, false],
      [4252, null],
    ] as const) {
      const { repo, main } = serve(fake, appId, everyMerge);
      const bot = await startBotProcess({ gheHost: fake.host, appId });
      try {
        expect(await deliverAndSettle(bot, "push", pushEvent({ before: main[0] ?? "", after: main[3] ?? "" }))).toBe(200);
        expect(bot.output()).toMatch(/watch\.everyMerge is off for /);
        expect(repo.dispatches).toEqual([]);
        expect(fake.violations).toEqual([]);
      } finally {
        await bot.stop();
      }
      fake.reset();
    }
  });

  it(
    "dispatches one round per new first-parent commit, never twice: redelivered, restarted, overlapping or forced",
    { timeout: 240_000 },
    async () => {
      fake.reset();
      const { repo, main } = serve(fake, 4253, true);
      const env = { SPEEDGATE_DATA_DIR: await makeTempDir("speedgate-merge-data-") };
      let bot = await startBotProcess({ gheHost: fake.host, env, appId: 4253 });
      try {
        // Three merges in one push (the payload's commits list names one commit only, and never the branch commits'): 1, 2 and 3.
        const push = pushEvent({ before: main[0] ?? "", after: main[3] ?? "" });
        expect(await deliverAndSettle(bot, "push", push)).toBe(200);
        const expected = [1, 2, 3].map((index) => ({
          base: main[index - 1],
          head: main[index],
          step: mergeRunTitle(main[index] ?? "", 1),
        }));
        expect(
          repo.dispatches.map((dispatch) => dispatch.inputs),
          bot.output().slice(-4000),
        ).toEqual(expected);
        expect(repo.dispatches.every((dispatch) => dispatch.ref === "main" && dispatch.workflow === "speedgate-watch.yml")).toBe(true);

        // GitHub's redelivery of the same push (a new delivery id): the work was stored before.
        const copy = randomUUID();
        expect(await sendWebhook(bot.webhookUrl, { event: "push", payload: push, id: copy, secret: bot.secret })).toBe(200);
        await bot.waitFor(new RegExp(`delivery ${copy}: \\S+ was stored before`));
        expect(repo.dispatches).toHaveLength(3);

        // Restarted on the same data: a push naming merges 2 to 4 (another before, so new work) dispatches merge 4 only.
        await bot.stop();
        bot = await startBotProcess({ gheHost: fake.host, env, appId: 4253 });
        expect(await deliverAndSettle(bot, "push", pushEvent({ before: main[1] ?? "", after: main[4] ?? "" }))).toBe(200);
        expect(repo.dispatches.map((dispatch) => dispatch.inputs.head)).toEqual([main[1], main[2], main[3], main[4]]);
        expect(bot.output()).toMatch(/round 1 of merge [0-9a-f]{12} was dispatched before: not sent again/);

        // A forced push back to merge 3 (history rewritten): its new head only, which was scored already.
        expect(await deliverAndSettle(bot, "push", pushEvent({ before: main[4] ?? "", after: main[3] ?? "", forced: true }))).toBe(200);
        expect(bot.output()).toMatch(/a forced push rewrote the default branch: only its new head [0-9a-f]{12} is scored/);
        // A forced push to a commit never scored (merge 6 onto 4, skipping 5): merge 6 against its parent, merge 5 left to the drift round.
        expect(await deliverAndSettle(bot, "push", pushEvent({ before: main[4] ?? "", after: main[6] ?? "", forced: true }))).toBe(200);
        expect(repo.dispatches.map((dispatch) => dispatch.inputs)).toEqual([
          ...expected,
          { base: main[3], head: main[4], step: mergeRunTitle(main[4] ?? "", 1) },
          { base: main[5], head: main[6], step: mergeRunTitle(main[6] ?? "", 1) },
        ]);

        // A push to another branch, a tag, and the default branch deleted: nothing to do, said at intake.
        const other = randomUUID();
        const branch = pushEvent({ ref: "refs/heads/feature", before: main[6] ?? "", after: main[7] ?? "" });
        expect(await deliverAndSettle(bot, "push", branch, other)).toBe(200);
        expect(bot.output()).toContain(`delivery ${other}: nothing to do (refs/heads/feature is not the default branch)`);
        const tag = randomUUID();
        expect(await deliverAndSettle(bot, "push", pushEvent({ ref: "refs/tags/v1.0", before: ZERO, after: main[7] ?? "" }), tag)).toBe(
          200,
        );
        expect(bot.output()).toContain(`delivery ${tag}: nothing to do (refs/tags/v1.0 is not the default branch)`);
        const deleted = randomUUID();
        expect(await deliverAndSettle(bot, "push", pushEvent({ before: main[6] ?? "", after: ZERO }), deleted)).toBe(200);
        expect(bot.output()).toContain(`delivery ${deleted}: nothing to do (the push deleted the default branch`);
        expect(repo.dispatches).toHaveLength(5);
        expect(fake.violations).toEqual([]);
      } finally {
        await bot.stop();
      }
    },
  );

  it(
    "names the merge 8% slower against its parent: one comment on its pull request, one tracking issue, each round in main's series",
    { timeout: 240_000 },
    async () => {
      fake.reset();
      const { repo, main } = serve(fake, 4254, true);
      const env = { SPEEDGATE_DATA_DIR: await makeTempDir("speedgate-merge-data-") };
      let bot = await startBotProcess({ gheHost: fake.host, env, appId: 4254 });
      const answered = new Set<number>();
      try {
        expect(await deliverAndSettle(bot, "push", pushEvent({ before: main[9] ?? "", after: main[12] ?? "" }))).toBe(200);
        expect(repo.dispatches.map((dispatch) => dispatch.inputs.head)).toEqual([main[10], main[11], main[12]]);
        await runDispatched(bot, repo, main, guiltyLevel, answered);
        // Merge 11's round is wholly below 0.97× at once: no repeat, nothing dispatched beyond the three rounds.
        expect(repo.dispatches).toHaveLength(3);
        expect(repo.issues, bot.output().slice(-4000)).toHaveLength(1);
        const issue = repo.issues[0];
        expect(issue?.title).toBe(`speedgate: decode slower on main: merge ${main[GUILTY]?.slice(0, 12)}`);
        expect(issue?.body).toMatch(new RegExp(`^\\*\\*Found: \\[#${GUILTY}\\]\\([^)]+\\) \\[\`${main[GUILTY]?.slice(0, 12)}\`\\]`));
        expect(issue?.body).toMatch(/decode 8\.\d% slower \[\d\.\d%, \d\.\d%\] against its parent, its whole 95% interval below/);
        expect(issue?.body).toContain("| chat");
        const comments = fake.comments.filter((comment) => comment.issueNumber === GUILTY);
        expect(comments).toHaveLength(1);
        expect(comments[0]?.body).toContain("### speedgate: this merge made main slower");
        expect(comments[0]?.body).toMatch(/Merged \d+ days ago: decode 8\.\d% slower \[\d\.\d%, \d\.\d%\] on gpu-runner-3/);
        expect(comments[0]?.body).toContain("`watch.everyMerge`");
        expect(comments[0]?.body).toContain("The merge's card against its parent");
        expect(fake.comments.filter((comment) => comment.issueNumber !== GUILTY)).toEqual([]);

        // Merge 11's round redelivered, and after a restart: no second comment, no second issue.
        const guiltyRun = repo.dispatches[1];
        const payload = workflowRunCompleted({
          id: guiltyRun?.runId ?? 0,
          headSha: main[12] ?? "",
          headBranch: "main",
          event: "workflow_dispatch",
          title: guiltyRun?.inputs.step ?? "",
          workflowFile: "speedgate-watch.yml",
        });
        await bot.stop();
        bot = await startBotProcess({ gheHost: fake.host, env, appId: 4254, pages: true });
        // A new attempt of the same run (a re-run on the runner): new work, judged again, reported once.
        const rerun = { ...payload, workflow_run: { ...(payload.workflow_run as object), run_attempt: 2 } };
        expect(await deliverAndSettle(bot, "workflow_run", rerun)).toBe(200);
        expect(fake.comments.filter((comment) => comment.issueNumber === GUILTY)).toHaveLength(1);
        expect(repo.issues).toHaveLength(1);

        // The repository page draws each merge round as its own kind of point, its row opening that round's card.
        fake.on("GET", "/repos/{owner}/{repo}/installation", () => ({ status: 200, body: { id: 1, app_id: 4254 } }));
        fake.on("GET", "/repos/{owner}/{repo}", () => ({ status: 200, body: { full_name: `${OWNER}/${REPO}`, private: false } }));
        const page = await fetch(`${bot.baseUrl}/repos/${OWNER}/${REPO}`);
        const html = await page.text();
        expect(page.status, html.slice(0, 400)).toBe(200);
        expect(html).toContain("merges against their parent");
        const row = new RegExp(
          `<td class="sha"><a href="([^"]+)">${main[GUILTY]?.slice(0, 12)}</a></td><td>[^<]*</td><td>merge against its parent`,
        );
        const link = row.exec(html);
        expect(link, html.slice(0, 2000)).not.toBeNull();
        const cardPage = await fetch(new URL(link?.[1] ?? "", bot.baseUrl));
        expect(cardPage.status).toBe(200);
        expect(await cardPage.text()).toContain(main[GUILTY]?.slice(0, 12));
        expect(fake.violations).toEqual([]);
      } finally {
        await bot.stop();
      }
      // Each merge's round is in main's series as a merge round, and its whole card is kept for the history page's point.
      const database = await openDatabase({ kind: "pglite", dataDir: env.SPEEDGATE_DATA_DIR }, { logger: silentLogger, create: false });
      try {
        const points = await listMainSeries(database.pool, { repository: `${OWNER}/${REPO}`, scenario: "decode" });
        expect(points.map((point) => [point.kind, point.headSha, point.baseSha])).toEqual([
          ["merge", main[10], main[9]],
          ["merge", main[11], main[10]],
          ["merge", main[11], main[10]],
          ["merge", main[12], main[11]],
        ]);
        expect(points[1]?.score).toBeCloseTo(0.92, 2);
        const cardIds = await listMainRoundCardIds(database.pool, `${OWNER}/${REPO}`);
        expect(points.filter((point) => !cardIds.has(point.roundId))).toEqual([]);
      } finally {
        await database.close();
      }
    },
  );

  it("repeats a merge round that straddles the bar up to watch.maxRepeats, then reports it undecided, naming nothing", async () => {
    fake.reset();
    const { repo, main } = serve(fake, 4255, true);
    // Merge 5 makes decode 3% slower: on the bar of 0.97×, its interval straddles it however many rounds are pooled.
    const onTheBar: Level = (index) => (index >= 5 ? 0.97 : 1);
    const bot = await startBotProcess({ gheHost: fake.host, appId: 4255 });
    try {
      expect(await deliverAndSettle(bot, "push", pushEvent({ before: main[4] ?? "", after: main[5] ?? "" }))).toBe(200);
      await runDispatched(bot, repo, main, onTheBar, new Set());
      expect(repo.dispatches.map((dispatch) => dispatch.inputs.step)).toEqual(
        [1, 2, 3].map((round) => mergeRunTitle(main[5] ?? "", round)),
      );
      expect(repo.dispatches.every((dispatch) => dispatch.inputs.base === main[4] && dispatch.inputs.head === main[5])).toBe(true);
      expect(bot.output()).toMatch(
        new RegExp(`merge ${main[5]?.slice(0, 12)} is undecided after 3 rounds: its interval still straddles the bar of 0\\.97×`),
      );
      expect(repo.issues).toEqual([]);
      expect(fake.comments).toEqual([]);
      expect(fake.violations).toEqual([]);
    } finally {
      await bot.stop();
    }
  });

  it("adds one line to the issue of a bisection open over the merge; the bisection tells its pull request nothing more", async () => {
    fake.reset();
    const { repo, main } = serve(fake, 4256, true);
    const bot = await startBotProcess({ gheHost: fake.host, appId: 4256 });
    const answered = new Set<number>();
    try {
      // The nightly drift round of merge 16 against the first commit flags decode; its bisection starts (probe 8 dispatched).
      const driftRun = fake.nextId();
      repo.artifacts.set(driftRun, zipScorecard(watchStepCard(main, main[0] ?? "", main[MERGES] ?? "", guiltyLevel)));
      const drift = workflowRunCompleted({
        id: driftRun,
        headSha: main[MERGES] ?? "",
        headBranch: "main",
        event: "schedule",
        title: "speedgate-watch",
        workflowFile: "speedgate-watch.yml",
      });
      expect(await deliverAndSettle(bot, "workflow_run", drift)).toBe(200);
      expect(repo.issues).toHaveLength(1);
      const probe = repo.dispatches[0];
      if (probe) answered.add(probe.runId);
      // Merge 11 lands in a push while the bisection runs (a push replayed late, say): its round names it.
      expect(await deliverAndSettle(bot, "push", pushEvent({ before: main[10] ?? "", after: main[11] ?? "" }))).toBe(200);
      await runDispatched(bot, repo, main, guiltyLevel, answered);
      expect(repo.issues).toHaveLength(1);
      const lines = fake.comments.filter((comment) => comment.issueNumber === repo.issues[0]?.number);
      expect(lines).toHaveLength(1);
      expect(lines[0]?.body).toMatch(/^\*\*Merge \[#11\]\([^)]+\) \[`[0-9a-f]{12}`\]\([^)]+\), scored against its parent after it landed/);
      expect(fake.comments.filter((comment) => comment.issueNumber === GUILTY)).toHaveLength(1);
      // The bisection goes on to name merge 11 too; its pull request is not told twice.
      const first = repo.dispatches[0];
      if (first) {
        answered.delete(first.runId);
        await runDispatched(bot, repo, main, guiltyLevel, answered);
      }
      expect(repo.issues[0]?.title, bot.output().slice(-3000)).toContain(`merge ${main[GUILTY]?.slice(0, 12)}`);
      expect(fake.comments.filter((comment) => comment.issueNumber === GUILTY)).toHaveLength(1);
      expect(fake.violations).toEqual([]);
    } finally {
      await bot.stop();
    }
  });
});
