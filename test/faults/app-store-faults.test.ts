import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowRunWorkKey } from "../../bot/store/derive-work-key.js";
import { OWNER, REPO, workflowRunCompleted } from "../../harness/fake-github/adjust-payloads.js";
import { makeTestScorecard, zipScorecard } from "../../harness/fake-github/make-test-scorecard.js";
import { type FakeDelivery, serveAppDeliveries } from "../support/fake-github/serve-app-deliveries.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import { sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { type BotProcess, startBotProcess } from "../support/fake-github/start-bot-process.js";
import { type TestDatabaseHandle, describeEachBackend, testBackends } from "../support/database/database-backends.js";
import { ForwardingProxy } from "../support/forwarding-proxy.js";
import { FaultyFakeGitHub } from "./support/faulty-fake-github.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * The fault table's rows for the app's store (#14), against `npm run bot` as deployed: a restart in
 * the middle of a card's retries, two replicas taking the same deliveries at once, and the
 * database going away and coming back. Each card must land once: none lost, none twice.
 */

const COMMENTS = "/repos/{owner}/{repo}/issues/{issue_number}/comments";
const CARD_MARKER = "<!-- speedgate -->";
const REPOSITORY = `${OWNER}/${REPO}`;
const postgres = testBackends().find((backend) => backend.name === "postgres");
const DELIVERIES = 30;

const sha = (n: number): string => n.toString(16).padStart(40, "0");
const pullFor = (n: number): FakePull => ({ number: n, headSha: sha(n), headRepo: REPOSITORY, headBranch: `topic-${n}`, author: "writer" });
const runOf = (pull: FakePull, runId: number): Record<string, unknown> =>
  workflowRunCompleted({ id: runId, headSha: pull.headSha, headBranch: pull.headBranch, headRepo: REPOSITORY });
/** The key of the job that posts a run's card on its pull request's lane (bot/handlers/post-scorecard.ts). */
const publishKey = (runId: number): string => `${workflowRunWorkKey(REPOSITORY, runId, 1)}:publish`;

function databaseEnv(handle: TestDatabaseHandle, url?: string): Record<string, string> {
  return handle.target.kind === "pglite" ? { SPEEDGATE_DATA_DIR: handle.target.dataDir } : { DATABASE_URL: url ?? handle.target.url };
}

function cardsOn(fake: FaultyFakeGitHub, number: number): number {
  return fake.comments.filter((comment) => comment.issueNumber === number && comment.body.startsWith(CARD_MARKER)).length;
}

describeEachBackend("the app restarts in the middle of a card's retries", (backend) => {
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub() });
  let handle: TestDatabaseHandle;
  const bots: BotProcess[] = [];

  beforeAll(async () => {
    handle = await backend.create();
  });
  afterAll(async () => {
    for (const bot of bots) await bot.stop();
    await handle?.destroy();
  });

  it("the card still lands, once, posted by the restarted app", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const key = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const pull = pullFor(61);
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: 4242, pulls: [pull], artifacts: { 6101: zipScorecard(makeTestScorecard()) } });
    // A 422 is not retried by Octokit: the job's first attempt fails at once and is due again in e^1 s.
    fake.failNext("POST", COMMENTS, { response: { status: 422, body: { message: "Validation Failed" } } });
    const first = await startBotProcess({ gheHost: fake.host, privateKey: key, env: databaseEnv(handle) });
    bots.push(first);
    const id = randomUUID();
    expect(await sendWebhook(first.webhookUrl, { event: "workflow_run", payload: runOf(pull, 6101), id, secret: first.secret })).toBe(200);
    await first.waitFor(/publish-card \S+ failed on attempt 1, to be retried/);
    // Redeployed between two attempts: the first app stops, the new one starts on the same database.
    await first.stop();
    expect(cardsOn(fake, 61)).toBe(0);
    const second = await startBotProcess({ gheHost: fake.host, privateKey: key, env: databaseEnv(handle) });
    bots.push(second);
    await second.workEnded(publishKey(6101));
    expect(second.output()).toMatch(/publish-card \S+ done on attempt 2/);
    expect(cardsOn(fake, 61)).toBe(1);
    expect(fake.checkRuns).toMatchObject([{ headSha: pull.headSha, status: "completed", conclusion: "success" }]);
  }, 180_000);
});

describe.skipIf(!postgres?.available)("two replicas of the app on one PostgreSQL database", () => {
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub() });
  let handle: TestDatabaseHandle;
  let replicas: BotProcess[] = [];

  beforeAll(async () => {
    handle = await (postgres as NonNullable<typeof postgres>).create();
  });
  afterAll(async () => {
    for (const bot of replicas) await bot.stop();
    await handle?.destroy();
  });

  // 30 deliveries are 60 requests racing two replicas for the same work, which is what the row is about;
  // 100 of them took 2.5 minutes of a loaded test run; npm run bench measures 100 concurrent deliveries.
  it("30 concurrent deliveries, each sent to both replicas: 0 lost, 0 duplicates", async () => {
    const pulls = Array.from({ length: DELIVERIES }, (_, index) => pullFor(100 + index));
    const artifacts = Object.fromEntries(pulls.map((pull) => [pull.number * 10, zipScorecard(makeTestScorecard())]));
    serveRepository(fake, { owner: OWNER, repo: REPO, appId: 4242, pulls, artifacts });
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const key = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    // Replicas of one app: the same key, the same database; they start together, each migrating under the lock.
    replicas = await Promise.all(
      [0, 1].map(async () => await startBotProcess({ gheHost: fake.host, privateKey: key, env: databaseEnv(handle) })),
    );
    const statuses = await Promise.all(
      pulls.flatMap((pull) => {
        const id = randomUUID();
        // A load balancer and GitHub's redelivery can both hand one delivery to two replicas.
        return replicas.map(
          async (bot) =>
            await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload: runOf(pull, pull.number * 10), id, secret: bot.secret }),
        );
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await Promise.all(
      pulls.map(async (pull) => await Promise.race(replicas.map(async (bot) => await bot.workEnded(publishKey(pull.number * 10))))),
    );

    expect(fake.violations).toEqual([]);
    const lost = pulls.filter((pull) => cardsOn(fake, pull.number) === 0).map((pull) => pull.number);
    const twice = pulls.filter((pull) => cardsOn(fake, pull.number) > 1).map((pull) => pull.number);
    expect({ lost, twice }).toEqual({ lost: [], twice: [] });
    // Each card's job ran once, in one replica or the other, and both replicas took work.
    const runs = replicas.map((bot) => bot.output().match(/publish-card \S+ done/g)?.length ?? 0);
    expect(runs.reduce((sum, count) => sum + count, 0)).toBe(DELIVERIES);
    expect(runs.every((count) => count > 0)).toBe(true);
    expect(fake.checkRuns.filter((check) => check.status === "completed" && check.conclusion === "success")).toHaveLength(DELIVERIES);
    expect(new Set(fake.checkRuns.map((check) => check.headSha)).size).toBe(DELIVERIES);
  }, 300_000);
});

describe.skipIf(!postgres?.available)("the app's database goes away and comes back", () => {
  const fake = useFakeGitHub({ fake: new FaultyFakeGitHub() });
  let handle: TestDatabaseHandle;
  let proxy: ForwardingProxy;
  let bot: BotProcess | null = null;

  beforeAll(async () => {
    handle = await (postgres as NonNullable<typeof postgres>).create();
    if (handle.target.kind !== "postgres") throw new Error("expected a server database");
    const server = new URL(handle.target.url);
    proxy = new ForwardingProxy({ host: server.hostname, port: Number(server.port || "5432") });
    await proxy.start();
  });
  afterAll(async () => {
    await bot?.stop();
    await proxy?.stop();
    await handle?.destroy();
  });

  it(
    "a delivery refused during the outage is asked for again once it is " + "back, and deliveries after it are accepted: none lost",
    async () => {
      if (handle.target.kind !== "postgres") throw new Error("expected a server database");
      const pulls = [pullFor(71), pullFor(72), pullFor(73)];
      const artifacts = Object.fromEntries(pulls.map((pull) => [pull.number * 10, zipScorecard(makeTestScorecard())]));
      serveRepository(fake, { owner: OWNER, repo: REPO, appId: 4242, pulls, artifacts });
      // GitHub's side: each delivery it made, with the status the app answered, and its redelivery on request.
      const sent = new Map<string, { event: string; payload: unknown }>();
      const deliveries = serveAppDeliveries(fake, {
        deliveries: [],
        redeliver: async (delivery: FakeDelivery) => {
          const original = sent.get(delivery.guid);
          if (!original || !bot) return 0;
          return await sendWebhook(bot.webhookUrl, {
            event: original.event,
            payload: original.payload,
            id: delivery.guid,
            secret: bot.secret,
          });
        },
      });
      const deliver = async (payload: unknown): Promise<{ id: string; status: number }> => {
        const id = randomUUID();
        sent.set(id, { event: "workflow_run", payload });
        const status = bot ? await sendWebhook(bot.webhookUrl, { event: "workflow_run", payload, id, secret: bot.secret }) : 0;
        deliveries.deliveries.push({
          id: fake.nextId(),
          guid: id,
          deliveredAt: new Date().toISOString(),
          redelivery: false,
          statusCode: status,
          event: "workflow_run",
          action: "completed",
        });
        return { id, status };
      };
      const through = new URL(handle.target.url);
      through.hostname = "127.0.0.1";
      through.port = String(proxy.port);
      bot = await startBotProcess({ gheHost: fake.host, env: { DATABASE_URL: through.toString() } });

      const before = await deliver(runOf(pulls[0] as FakePull, 710));
      expect(before.status).toBe(200);
      await bot.settled(before.id);

      await proxy.cut();
      const during = await deliver(runOf(pulls[1] as FakePull, 720));
      // Not stored, so not acknowledged: GitHub records a failed delivery.
      expect(during.status).toBeGreaterThanOrEqual(500);
      expect(cardsOn(fake, 72)).toBe(0);

      await proxy.start();
      // Once the database answers, the app asks GitHub for what failed meanwhile; GitHub sends it again.
      await bot.waitFor(/database: answering again; asking GitHub for the deliveries that failed since/);
      await bot.workEnded(publishKey(720));
      expect(deliveries.attempts).toHaveLength(1);
      const after = await deliver(runOf(pulls[2] as FakePull, 730));
      expect(after.status).toBe(200);
      await bot.settled(after.id);

      expect(fake.violations).toEqual([]);
      expect(pulls.map((pull) => cardsOn(fake, pull.number))).toEqual([1, 1, 1]);
      expect(fake.checkRuns.filter((check) => check.conclusion === "success")).toHaveLength(3);
    },
    180_000,
  );
});
