import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { FakeGitHub, type FakeResponse } from "../../harness/fake-github/fake-github-server.js";
import { zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { deliverAndSettle, sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { serveRepository } from "../../harness/fake-github/serve-repository.js";
import { stepRunTitle } from "../../src/github/dispatch-watch-step.js";
import { silentLogger } from "../../src/logger.js";
import { startBisection } from "../../src/store/main-series.js";
import { prepareDatabase } from "../../src/store/prepare-database.js";
import { type TestDatabaseHandle, describeEachBackend, pgliteBackend } from "../support/database/database-backends.js";
import { type BotProcess, startBotProcess } from "../support/fake-github/start-bot-process.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { mainWithMerges, watchStepCard } from "../support/watch/main-with-merges.js";

/*
 * #41: the app SIGKILLed in the middle of a bisection (an OOM kill: no stop, no hand-back) and started again on the
 * same store resumes it, with no step dispatched twice and the tracking issue and the comment posted once. It is
 * killed twice at the worst moments: while it downloads a step's card (the card job is half done: nothing of it
 * stored), and while a step's workflow_dispatch hangs at GitHub (GitHub got it, its answer never came back). The
 * killed process's jobs are handed back at the restart because its death is proven (PGlite: this process owns the
 * folder; PostgreSQL: its advisory locks are gone), not after the heartbeat's 2-minute stale wait, which the log
 * must not show.
 */

const MERGES = 16;
const GUILTY = 11;
const CONFIG = ["watch:", "  workflow: speedgate-watch.yml", "  maxDrift: 0.97", "  maxRepeats: 2", ""].join("\n");
const decodeLevel = (index: number): number => (index >= GUILTY ? 0.92 : 1);
const WATCH = "speedgate-watch.yml";

describeEachBackend("a bisection whose app is SIGKILLed twice, over HTTP", (backend) => {
  const fake = new FakeGitHub();
  let handle: TestDatabaseHandle;
  beforeAll(async () => await fake.start());
  afterAll(async () => await fake.stop());
  beforeEach(async () => {
    fake.reset();
    handle = await backend.create();
  });
  afterEach(async () => await handle.destroy());

  it(
    "resumes after a kill mid-card-download and a kill mid-dispatch: every step sent once, merge 11 named, one issue, one comment",
    { timeout: 480_000 },
    async () => {
      const { commits, main, pulls } = mainWithMerges(MERGES);
      const good = main[0] ?? "";
      const bad = main[MERGES] ?? "";
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: 4251,
        config: CONFIG,
        commits,
        pulls,
        workflows: [WATCH],
        workflowInputs: ["good", "bad", "base", "head", "step"],
      });
      // GitHub as it answers, except where the test holds a request: the answer never comes, the app is killed meanwhile.
      let holdDispatch = false;
      let holdDownload = false;
      let reached: () => void = () => undefined;
      const held = (): Promise<void> => new Promise<void>((resolve) => (reached = resolve));
      const sent: string[] = [];
      fake.on("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", (request) => {
        const fields = (request.body ?? {}) as { ref: string; inputs?: Record<string, string> };
        sent.push(fields.inputs?.step ?? "");
        const runId = fake.nextId();
        repo.dispatches.push({ workflow: request.pathParams.workflow_id ?? "", ref: fields.ref, inputs: fields.inputs ?? {}, runId });
        if (holdDispatch) {
          reached();
          return new Promise<FakeResponse>(() => undefined);
        }
        return {
          status: 200,
          body: { workflow_run_id: runId, run_url: "", html_url: `https://github.com/${OWNER}/${REPO}/actions/runs/${runId}` },
        };
      });
      fake.on("GET", "/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}", (request) => {
        const runId = Number(request.pathParams.artifact_id) - 1;
        const zip = repo.artifacts.get(runId);
        if (!zip) return { status: 404, body: { message: "Not Found" } };
        if (holdDownload) {
          reached();
          return new Promise<FakeResponse>(() => undefined);
        }
        const blob = `artifact-${runId}.zip`;
        fake.blobs.set(blob, zip);
        return { status: 302, headers: { location: `${fake.url}/_blobs/${blob}` } };
      });
      const store: Record<string, string> =
        handle.target.kind === "postgres" ? { DATABASE_URL: handle.target.url } : { SPEEDGATE_DATA_DIR: handle.target.dataDir };
      // The suite's deep temporary folder, deeper still: PGlite's socket path would pass the 107 bytes a socket may have (a
      // restart after the kill bound the same cut path and failed, EADDRINUSE, until the app kept its sockets under /tmp).
      const env = { ...store, TMPDIR: await makeTempDir("speedgate-killed-app-") };
      const start = async (): Promise<BotProcess> => await startBotProcess({ gheHost: fake.host, env, appId: 4251 });
      let bot = await start();
      const outputs: string[] = [];
      const runPayload = (runId: number, base: string, head: string, event: string, title: string): unknown => {
        repo.artifacts.set(runId, zipScorecard(watchStepCard(main, base, head, decodeLevel)));
        return workflowRunCompleted({ id: runId, headSha: bad, headBranch: "main", event, title, workflowFile: WATCH });
      };
      const deliverRun = async (runId: number, base: string, head: string, event: string, title: string): Promise<void> => {
        expect(await deliverAndSettle(bot, "workflow_run", runPayload(runId, base, head, event, title), randomUUID())).toBe(200);
      };
      const killed = async (): Promise<void> => {
        outputs.push(bot.output());
        await bot.kill();
      };
      const step = (key: string): string => stepRunTitle(1, key);
      const answered = new Set<number>();
      try {
        await deliverRun(fake.nextId(), good, bad, "schedule", "speedgate-watch");
        expect(
          repo.dispatches.map((dispatch) => dispatch.inputs.step),
          bot.output().slice(-4000),
        ).toEqual([step("probe-8-1")]);
        const probe8 = repo.dispatches[0];
        if (!probe8) throw new Error("no first dispatch");
        answered.add(probe8.runId);

        // Kill 1: probe 8's card is being downloaded (its job stored, nothing of the card read or stored yet).
        holdDownload = true;
        let holding = held();
        const payload8 = runPayload(probe8.runId, good, main[8] ?? "", "workflow_dispatch", step("probe-8-1"));
        expect(await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload: payload8, id: randomUUID(), secret: bot.secret })).toBe(
          200,
        );
        await holding;
        await killed();
        holdDownload = false;

        // Kill 2: the restarted app reads probe 8's card and dispatches probe 12, whose dispatch hangs at GitHub.
        holdDispatch = true;
        holding = held();
        bot = await start();
        await holding;
        expect(repo.dispatches.map((dispatch) => dispatch.inputs.step)).toEqual([step("probe-8-1"), step("probe-12-1")]);
        await killed();
        holdDispatch = false;

        // Started again: the bisect job cannot tell whether probe 12 was dispatched, so it is never sent again; the issue says so.
        bot = await start();
        await fake.waitUntil(() => repo.issues[0]?.body.includes("cannot tell whether probe-12-1") === true);
        // GitHub had started it: its card arrives, and the bisection runs on to the end.
        const probe12 = repo.dispatches[1];
        if (!probe12) throw new Error("no probe 12");
        answered.add(probe12.runId);
        await deliverRun(probe12.runId, good, main[12] ?? "", "workflow_dispatch", step("probe-12-1"));
        for (;;) {
          const next = repo.dispatches.find((dispatch) => !answered.has(dispatch.runId));
          if (!next) break;
          answered.add(next.runId);
          await deliverRun(next.runId, next.inputs.base ?? "", next.inputs.head ?? "", "workflow_dispatch", next.inputs.step ?? "");
        }
        outputs.push(bot.output());

        expect(sent).toEqual([step("probe-8-1"), step("probe-12-1"), step("probe-10-1"), step("probe-11-1"), step("parent-11-1")]);
        const issue = repo.issues[0];
        expect(repo.issues).toHaveLength(1);
        expect(issue?.title).toContain(`merge ${main[GUILTY]?.slice(0, 12)}`);
        expect(issue?.body).toContain(
          `**Found: #${GUILTY} \`${main[GUILTY]?.slice(0, 12)}\` (merge ${GUILTY} of ${MERGES} in the range).**`,
        );
        for (const name of ["probe 8", "probe 12", "probe 10", "probe 11", "parent of 11"]) expect(issue?.body).toContain(name);
        expect(fake.comments.filter((comment) => comment.issueNumber === GUILTY)).toHaveLength(1);
        expect(fake.comments.filter((comment) => comment.issueNumber !== GUILTY)).toEqual([]);
        expect(fake.violations).toEqual([]);
        // Both restarts took the killed process's jobs at once, by proof; none waited for a heartbeat to go stale.
        const why =
          handle.target.kind === "pglite"
            ? /released the jobs of 1 worker pool\(s\) that belonged to a process that no longer runs/
            : /released the jobs of 1 worker pool\(s\) that lost their database session/;
        expect(outputs[1]).toMatch(why);
        expect(outputs[2]).toMatch(why);
        expect(outputs.join("\n")).not.toMatch(/stopped beating/);
      } finally {
        await bot.stop();
      }
    },
  );
});

describe("a drift round's job killed after it started the bisection, before it handed it on (PGlite)", () => {
  const fake = new FakeGitHub();
  beforeAll(async () => await fake.start());
  afterAll(async () => await fake.stop());

  it(
    "finishes the hand-on when the round's job runs again: the range round recorded, probe 8 dispatched once",
    { timeout: 240_000 },
    async () => {
      const { commits, main, pulls } = mainWithMerges(MERGES);
      const good = main[0] ?? "";
      const bad = main[MERGES] ?? "";
      const repo = serveRepository(fake, {
        owner: OWNER,
        repo: REPO,
        appId: 4252,
        config: CONFIG,
        commits,
        pulls,
        workflows: [WATCH],
        workflowInputs: ["good", "bad", "base", "head", "step"],
      });
      const backendHandle = await pgliteBackend().create();
      try {
        if (backendHandle.target.kind !== "pglite") throw new Error("expected PGlite");
        // What the killed job left: the bisection started (its row), nothing else of it written, no job stored after it.
        const database = await backendHandle.open();
        try {
          await prepareDatabase(database, silentLogger);
          await startBisection(database.pool, { repository: `${OWNER}/${REPO}`, commits: main, scenario: "decode", trigger: "drift" });
        } finally {
          await database.close();
        }
        const bot = await startBotProcess({ gheHost: fake.host, env: { SPEEDGATE_DATA_DIR: backendHandle.target.dataDir }, appId: 4252 });
        try {
          // The same round's job runs again (its retry, or GitHub's redelivery after the failed delivery).
          const runId = fake.nextId();
          repo.artifacts.set(runId, zipScorecard(watchStepCard(main, good, bad, decodeLevel)));
          const payload = workflowRunCompleted({
            id: runId,
            headSha: bad,
            headBranch: "main",
            event: "schedule",
            title: "speedgate-watch",
            workflowFile: WATCH,
          });
          expect(await deliverAndSettle(bot, "workflow_run", payload, randomUUID())).toBe(200);
          expect(
            repo.dispatches.map((dispatch) => dispatch.inputs.step),
            bot.output().slice(-3000),
          ).toEqual([stepRunTitle(1, "probe-8-1")]);
          expect(repo.issues).toHaveLength(1);
          expect(bot.output()).not.toMatch(/is still running: this drift waits for it/);
          // Once more (a redelivery under a new id): nothing more is stored or sent.
          expect(await deliverAndSettle(bot, "workflow_run", payload, randomUUID())).toBe(200);
          expect(repo.dispatches).toHaveLength(1);
          expect(repo.issues).toHaveLength(1);
        } finally {
          await bot.stop();
        }
      } finally {
        await backendHandle.destroy();
      }
    },
  );
});
