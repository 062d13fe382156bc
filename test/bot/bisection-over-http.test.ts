import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { FakeGitHub, type FakeResponse } from "../../harness/fake-github/fake-github-server.js";
import { zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle, sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { stepRunTitle } from "../../src/github/dispatch-watch-step.js";
import { silentLogger } from "../../src/logger.js";
import { listMainRoundCardIds } from "../../src/store/card-documents.js";
import { listMainSeries } from "../../src/store/main-series.js";
import { openDatabase } from "../../src/store/open-database.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { type BotProcess, startBotProcess } from "../support/fake-github/start-bot-process.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { mainWithMerges, watchStepCard } from "../support/watch/main-with-merges.js";

/*
 * #41, the app's part: the watch workflow's drift round flags main, and the app bisects it as durable work,
 * each step a workflow_dispatch of the watch workflow whose card comes back as workflow_run.completed, over
 * HTTP with signed deliveries against the fake GitHub. The runner is played by the test: each dispatched
 * step's card scores its head against its base at the levels main's history has (merge 11 of 16 makes
 * decode 8% slower), with a runner's tight spread. The app is stopped while it sends a step's dispatch
 * (GitHub got it, the answer never came back) and started again on the same data folder: the step is never
 * sent twice, its run's card still moves the bisection on, and merge 11 is named within ⌈log2 16⌉ + 2 rounds.
 */

const MERGES = 16;
const GUILTY = 11;

const CONFIG = ["watch:", "  workflow: speedgate-watch.yml", "  maxDrift: 0.97", "  maxRepeats: 2", ""].join("\n");

/** decode's speed at main's commit `index`: merge 11 makes it 8% slower; chat never moves. */
const decodeLevel = (index: number): number => (index >= GUILTY ? 0.92 : 1);

/** The card a watch run writes: decode at decodeLevel (merge 11 8% slower) unless a test says otherwise. */
const stepCard = (main: readonly string[], base: string, head: string, level: (index: number) => number = decodeLevel): Scorecard =>
  watchStepCard(main, base, head, level);

describe("a drift of main bisected by the app over HTTP (`npm run bot`, its PGlite kept across a stop mid-dispatch)", () => {
  const fake = new FakeGitHub();
  beforeAll(async () => await fake.start());
  afterAll(async () => await fake.stop());

  it(
    "flags the drift, dispatches each step once, resumes after a stop, names merge 11 in 6 rounds, comments and keeps the issue",
    { timeout: 300_000 },
    async () => {
      const { commits, main, pulls } = mainWithMerges(MERGES);
      const good = main[0] ?? "";
      const bad = main[MERGES] ?? "";
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: 4244,
        config: CONFIG,
        commits,
        pulls,
        workflows: ["speedgate-watch.yml"],
        workflowInputs: ["good", "bad", "base", "head", "step"],
      });
      // The dispatch as GitHub answers it, except while `hang` is set: GitHub got the request, its answer never came back.
      let hang = false;
      let reached: () => void = () => undefined;
      const sent: string[] = [];
      fake.on("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", (request) => {
        const fields = (request.body ?? {}) as { ref: string; inputs?: Record<string, string> };
        sent.push(fields.inputs?.step ?? "");
        if (hang) {
          reached();
          return new Promise<FakeResponse>(() => undefined);
        }
        const runId = fake.nextId();
        repo.dispatches.push({ workflow: request.pathParams.workflow_id ?? "", ref: fields.ref, inputs: fields.inputs ?? {}, runId });
        return {
          status: 200,
          body: { workflow_run_id: runId, run_url: "", html_url: `https://github.com/${OWNER}/${REPO}/actions/runs/${runId}` },
        };
      });
      const env = { SPEEDGATE_DATA_DIR: await makeTempDir("speedgate-bisection-data-") };
      let bot: BotProcess = await startBotProcess({ gheHost: fake.host, env, appId: 4244 });
      const deliveries: Array<{ id: string; payload: unknown }> = [];
      const deliverRun = async (runId: number, base: string, head: string, event: string, title: string): Promise<void> => {
        repo.artifacts.set(runId, zipScorecard(stepCard(main, base, head)));
        const payload = workflowRunCompleted({
          id: runId,
          headSha: bad,
          headBranch: "main",
          event,
          title,
          workflowFile: "speedgate-watch.yml",
        });
        const id = randomUUID();
        deliveries.push({ id, payload });
        expect(await deliverAndSettle(bot, "workflow_run", payload, id)).toBe(200);
      };
      /** Runs every dispatched step not run yet, as the runner would, until the app dispatches nothing new. */
      const answered = new Set<number>();
      const runDispatched = async (): Promise<void> => {
        for (;;) {
          const next = repo.dispatches.find((dispatch) => !answered.has(dispatch.runId));
          if (!next) return;
          answered.add(next.runId);
          await deliverRun(next.runId, next.inputs.base ?? "", next.inputs.head ?? "", "workflow_dispatch", next.inputs.step ?? "");
        }
      };
      const mark = (what: string): void => {
        if (process.env.SPEEDGATE_TEST_TRACE) process.stderr.write(`[bisection test] ${what}\n${bot.output().slice(-1500)}\n`);
      };
      try {
        // The scheduled drift round: main's head 8% slower in decode against the good commit.
        await deliverRun(fake.nextId(), good, bad, "schedule", "speedgate-watch");
        expect(
          repo.dispatches.map((dispatch) => dispatch.inputs),
          bot.output().slice(-6000),
        ).toEqual([{ base: good, head: main[8], step: stepRunTitle(1, "probe-8-1") }]);
        expect(repo.dispatches[0]?.ref).toBe("main");
        expect(repo.issues).toHaveLength(1);
        expect(repo.issues[0]?.body).toContain("**Bisecting:**");
        expect(repo.issues[0]?.title).toContain("decode slower on main");

        // probe 8 (good), then probe 12 (bad); the dispatch of probe 10 reaches GitHub and its answer never comes back.
        const first = repo.dispatches[0];
        if (!first) throw new Error("no first dispatch");
        answered.add(first.runId);
        mark("first dispatched");
        await deliverRun(first.runId, good, main[8] ?? "", "workflow_dispatch", stepRunTitle(1, "probe-8-1"));
        mark("probe 8 delivered");
        const second = repo.dispatches[1];
        expect(second?.inputs.step).toBe(stepRunTitle(1, "probe-12-1"));
        if (!second) throw new Error("no second dispatch");
        answered.add(second.runId);
        hang = true;
        const stuck = new Promise<void>((resolve) => (reached = resolve));
        const payload = workflowRunCompleted({
          id: second.runId,
          headSha: bad,
          headBranch: "main",
          event: "workflow_dispatch",
          title: second.inputs.step ?? "",
          workflowFile: "speedgate-watch.yml",
        });
        repo.artifacts.set(second.runId, zipScorecard(stepCard(main, good, main[12] ?? "")));
        expect(await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload, id: randomUUID(), secret: bot.secret })).toBe(200);
        mark("waiting for the stuck dispatch");
        await stuck;
        mark("stopping");
        await bot.stop();
        expect(bot.output()).toMatch(/handed back/);

        // Started again on the same data: the handed-back job cannot tell whether probe 10 was dispatched, so it is not sent again.
        hang = false;
        bot = await startBotProcess({ gheHost: fake.host, env, appId: 4244 });
        mark("restarted");
        await fake.waitUntil(() => repo.issues[0]?.body.includes("cannot tell whether probe-10-1") === true);
        expect(sent.filter((step) => step === stepRunTitle(1, "probe-10-1"))).toHaveLength(1);
        mark("issue says uncertain");
        // GitHub had started it: its run's card arrives and the bisection goes on.
        await deliverRun(fake.nextId(), good, main[10] ?? "", "workflow_dispatch", stepRunTitle(1, "probe-10-1"));
        await runDispatched();
        mark("ran the dispatched steps");
        // A redelivery of a step already stored dispatches nothing more.
        const again = deliveries[1];
        const copy = randomUUID();
        expect(await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload: again?.payload, id: copy, secret: bot.secret })).toBe(
          200,
        );
        await bot.waitFor(new RegExp(`delivery ${copy}: \\S+ was stored before`));

        const steps = sent.map((title) => title.replace(/^speedgate bisection 1 /, ""));
        // Every step sent once, and at most ⌈log2 16⌉ + 2 rounds after the drift round.
        expect(new Set(steps).size).toBe(steps.length);
        expect(steps).toEqual(["probe-8-1", "probe-12-1", "probe-10-1", "probe-11-1", "parent-11-1"]);
        expect(steps.length).toBeLessThanOrEqual(Math.ceil(Math.log2(MERGES)) + 2);

        const issue = repo.issues[0];
        expect(repo.issues).toHaveLength(1);
        expect(issue?.title).toContain(`merge ${main[GUILTY]?.slice(0, 12)}`);
        expect(issue?.body).toContain(
          `**Found: #${GUILTY} \`${main[GUILTY]?.slice(0, 12)}\` (merge ${GUILTY} of ${MERGES} in the range).**`,
        );
        for (const step of ["probe 8", "probe 12", "probe 10", "probe 11", "parent of 11"]) expect(issue?.body).toContain(step);
        const comments = fake.comments.filter((comment) => comment.issueNumber === GUILTY);
        expect(comments).toHaveLength(1);
        expect(comments[0]?.body).toContain("### speedgate: this merge made main slower");
        expect(comments[0]?.body).toMatch(/Merged \d+ days ago: decode 8\.\d% slower \[\d\.\d%, \d\.\d%\] on gpu-runner-3/);
        expect(comments[0]?.body).toContain("The merge's card against its parent");
        expect(fake.comments.filter((comment) => comment.issueNumber !== GUILTY)).toEqual([]);
        expect(fake.violations).toEqual([]);

        // Every round of main the app stored keeps its whole card: the repository page's points open their card pages.
        await bot.stop();
        const database = await openDatabase({ kind: "pglite", dataDir: env.SPEEDGATE_DATA_DIR }, { logger: silentLogger, create: false });
        try {
          const rounds = await listMainSeries(database.pool, { repository: `${OWNER}/${REPO}`, scenario: "decode" });
          const cardIds = await listMainRoundCardIds(database.pool, `${OWNER}/${REPO}`);
          expect(rounds.length).toBeGreaterThanOrEqual(6);
          expect(rounds.filter((round) => !cardIds.has(round.roundId))).toEqual([]);
        } finally {
          await database.close();
        }
      } finally {
        await bot.stop();
      }
    },
  );

  it("reports eight merges 1.5% slower each as a gradual drift, pinned on no merge, commented on no pull request", async () => {
    const { commits, main, pulls } = mainWithMerges(MERGES);
    const good = main[0] ?? "";
    const bad = main[MERGES] ?? "";
    // Merges 5 to 12 each make decode 1.5% slower: 11.4% over the range.
    const gradual = (index: number): number => 0.985 ** Math.max(0, Math.min(index, 12) - 4);
    fake.reset();
    const repo = serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: 4245,
      config: CONFIG,
      commits,
      pulls,
      workflows: ["speedgate-watch.yml"],
      workflowInputs: ["good", "bad", "base", "head", "step"],
    });
    const bot = await startBotProcess({ gheHost: fake.host, appId: 4245 });
    try {
      const deliverRun = async (runId: number, base: string, head: string, event: string, title: string): Promise<void> => {
        repo.artifacts.set(runId, zipScorecard(stepCard(main, base, head, gradual)));
        const payload = workflowRunCompleted({
          id: runId,
          headSha: bad,
          headBranch: "main",
          event,
          title,
          workflowFile: "speedgate-watch.yml",
        });
        expect(await deliverAndSettle(bot, "workflow_run", payload, randomUUID())).toBe(200);
      };
      await deliverRun(fake.nextId(), good, bad, "schedule", "speedgate-watch");
      const answered = new Set<number>();
      for (let turn = 0; turn < 12; turn++) {
        const next = repo.dispatches.find((dispatch) => !answered.has(dispatch.runId));
        if (!next) break;
        answered.add(next.runId);
        await deliverRun(next.runId, next.inputs.base ?? "", next.inputs.head ?? "", "workflow_dispatch", next.inputs.step ?? "");
      }
      const issue = repo.issues[0];
      expect(repo.issues).toHaveLength(1);
      expect(issue?.title).toContain("a gradual drift");
      expect(issue?.body, bot.output().slice(-3000)).toMatch(
        /\*\*Gradual drift: no single merge explains it\.\*\* decode got 11\.\d% slower over the 16/,
      );
      // The step that showed it: probe 8 sits part-way (6% slower, between 1× and the drift), its rounds pooled.
      expect(issue?.body).toMatch(/\[probe 8\]\([^)]+\) \| .+ \| the good commit \| 0\.94\d× \(6\.0% slower\)/);
      expect(fake.comments).toEqual([]);
      expect(fake.violations).toEqual([]);
    } finally {
      await bot.stop();
    }
  });

  it("keeps a watch run off another branch out of main's series; a step's card of other commits scores nothing", async () => {
    fake.reset();
    const { commits, main, pulls } = mainWithMerges(MERGES);
    const good = main[0] ?? "";
    const bad = main[MERGES] ?? "";
    const repo = serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: 4246,
      config: CONFIG,
      commits,
      pulls,
      workflows: ["speedgate-watch.yml"],
      workflowInputs: ["good", "bad", "base", "head", "step"],
    });
    const bot = await startBotProcess({ gheHost: fake.host, appId: 4246 });
    try {
      const deliver = async (runId: number, card: Scorecard, fields: { event: string; branch: string; title: string }): Promise<void> => {
        repo.artifacts.set(runId, zipScorecard(card));
        const payload = workflowRunCompleted({
          id: runId,
          headSha: bad,
          headBranch: fields.branch,
          event: fields.event,
          title: fields.title,
          workflowFile: "speedgate-watch.yml",
        });
        expect(await deliverAndSettle(bot, "workflow_run", payload, randomUUID())).toBe(200);
      };
      // A pull request's branch that edited the watch workflow, and a watch run of a pull_request event: neither is main's.
      await deliver(fake.nextId(), stepCard(main, good, bad), { event: "workflow_dispatch", branch: "evil", title: "speedgate-watch" });
      await deliver(fake.nextId(), stepCard(main, good, bad), { event: "pull_request", branch: "main", title: "speedgate-watch" });
      expect(repo.dispatches).toEqual([]);
      expect(repo.issues).toEqual([]);
      expect(fake.calls("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts")).toEqual([]);

      await deliver(fake.nextId(), stepCard(main, good, bad), { event: "schedule", branch: "main", title: "speedgate-watch" });
      const probe = repo.dispatches[0];
      expect(probe?.inputs.step).toBe(stepRunTitle(1, "probe-8-1"));
      // probe 8's run uploads a card of merge 9 (a run someone dispatched by hand with the step's title): not the step's commits.
      await deliver(probe?.runId ?? 0, stepCard(main, good, main[9] ?? ""), {
        event: "workflow_dispatch",
        branch: "main",
        title: stepRunTitle(1, "probe-8-1"),
      });
      expect(bot.output()).toMatch(/not probe-8-1's [0-9a-f]{12} against [0-9a-f]{12}: stored as a step that scored nothing/);
      // The step is run again, never judged on the other commits' score.
      expect(repo.dispatches.map((dispatch) => dispatch.inputs.step)).toEqual([stepRunTitle(1, "probe-8-1"), stepRunTitle(1, "probe-8-2")]);
      expect(repo.issues[0]?.body).toContain("scored nothing");
      expect(fake.violations).toEqual([]);
    } finally {
      await bot.stop();
    }
  });

  it("starts a bisection on a change point in the stored drift rounds no round's bar caught, its range round run first", async () => {
    fake.reset();
    const { commits, main, pulls } = mainWithMerges(MERGES);
    const good = main[0] ?? "";
    // Merge 11 makes decode 4% slower: inside watch.maxDrift 0.9, so no drift round raises an alarm.
    const small = (index: number): number => (index >= GUILTY ? 0.96 : 1);
    const config = [
      "watch:",
      "  workflow: speedgate-watch.yml",
      "  maxDrift: 0.9",
      "  changePoint: { maxPValue: 0.01, minSegment: 3, minChange: 0.02, permutations: 199 }",
      "",
    ].join("\n");
    const repo = serveRepository(fake, {
      owner: OWNER,
      repo: REPO,
      appId: 4247,
      config,
      commits,
      pulls,
      workflows: ["speedgate-watch.yml"],
      workflowInputs: ["good", "bad", "base", "head", "step"],
    });
    const bot = await startBotProcess({ gheHost: fake.host, appId: 4247 });
    try {
      const deliverRun = async (runId: number, base: string, head: string, event: string, title: string): Promise<void> => {
        repo.artifacts.set(runId, zipScorecard(stepCard(main, base, head, small)));
        const payload = workflowRunCompleted({
          id: runId,
          headSha: head,
          headBranch: "main",
          event,
          title,
          workflowFile: "speedgate-watch.yml",
        });
        expect(await deliverAndSettle(bot, "workflow_run", payload, randomUUID())).toBe(200);
      };
      // Nightly drift rounds against the same good commit, main's head one merge further each night.
      for (let night = 1; night <= 14; night++) await deliverRun(fake.nextId(), good, main[night] ?? "", "schedule", "speedgate-watch");
      expect(repo.dispatches.map((dispatch) => dispatch.inputs)).toEqual([
        { base: main[GUILTY - 1], head: main[GUILTY], step: stepRunTitle(1, "range") },
      ]);
      const range = repo.dispatches[0];
      await deliverRun(range?.runId ?? 0, main[GUILTY - 1] ?? "", main[GUILTY] ?? "", "workflow_dispatch", range?.inputs.step ?? "");
      const issue = repo.issues[0];
      expect(repo.issues).toHaveLength(1);
      expect(issue?.body, bot.output().slice(-3000)).toContain("A change point in main's series of drift rounds");
      expect(issue?.body).toContain(`**Found: #${GUILTY} \`${main[GUILTY]?.slice(0, 12)}\` (merge 1 of 1 in the range).**`);
      expect(fake.comments.filter((comment) => comment.issueNumber === GUILTY)).toHaveLength(1);
      expect(repo.dispatches).toHaveLength(1);
      expect(fake.violations).toEqual([]);
    } finally {
      await bot.stop();
    }
  });
});
