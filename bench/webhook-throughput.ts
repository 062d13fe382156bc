import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createNodeMiddleware } from "probot";
import { createSpeedgateApp } from "../bot/index.js";
import type { AppStore } from "../bot/store/app-store.js";
import { databaseAppStore } from "../bot/store/database-app-store.js";
import { silentLogger } from "../src/logger.js";
import type { Database } from "../src/store/database.js";
import { openDatabase } from "../src/store/open-database.js";
import { prepareDatabase } from "../src/store/prepare-database.js";
import { OWNER, REPO, workflowRunCompleted } from "../harness/fake-github/adjust-payloads.js";
import { createTestProbot } from "../harness/fake-github/create-test-probot.js";
import { FakeGitHub } from "../harness/fake-github/fake-github-server.js";
import { makeTestScorecard, zipScorecard } from "../harness/fake-github/make-test-scorecard.js";
import { sendWebhook } from "../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../harness/fake-github/serve-repository.js";
import { readRunStamp } from "../bot/stamp-card-comment.js";

/** Where the app keeps its work: a fresh PGlite folder (the default deployment) or a fresh database on a PostgreSQL server. */
export type BenchDatabase = { kind: "pglite" } | { kind: "postgres"; serverUrl: string };

export interface WebhookBenchResult {
  name: string;
  database: BenchDatabase["kind"];
  figures: {
    deliveries: number;
    pullRequests: number;
    handled: number;
    comments: number;
    duplicateComments: number;
    staleComments: number;
    apiViolations: number;
    /** Sent to answered: the work is stored in the database. */
    ackMedianMs: number;
    ackP99Ms: number;
    /** Sent to the end of the job that posts its card (comment and check written, or an older run's card dropped). */
    latencyMedianMs: number;
    latencyP99Ms: number;
    throughputPerS: number;
    wallMs: number;
  };
  goals: { everyDeliveryHandled: boolean; zeroDuplicateComments: boolean; latestCardKept: boolean; noApiViolations: boolean };
  met: boolean;
  notes: string[];
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

/** A database of the bench's own, removed afterwards. */
async function openBenchDatabase(choice: BenchDatabase): Promise<{ database: Database; remove: () => Promise<void> }> {
  if (choice.kind === "pglite") {
    const folder = await mkdtemp(join(tmpdir(), "speedgate-bench-db-"));
    const database = await openDatabase({ kind: "pglite", dataDir: join(folder, "data") }, { logger: silentLogger, maxConnections: 10 });
    return { database, remove: async () => await rm(folder, { recursive: true, force: true }) };
  }
  const name = `speedgate_bench_${randomBytes(6).toString("hex")}`;
  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: choice.serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(choice.serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() }, { logger: silentLogger, maxConnections: 10 });
  return { database, remove: async () => await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * 100 signed workflow_run deliveries sent at once over HTTP to the app (in-process, Probot's own
 * middleware, retries and throttling off so the figure is the app's, not GitHub's pacing), for 20 pull
 * requests at five finished runs each, against the local fake, with the deployed store: each delivery's
 * work a job in the database (graphile-worker). Two latencies: from the delivery being sent to Probot's
 * answer (sent once the work is stored), and to the end of the job that posts its card (the comment and
 * the check written, or an older run's card dropped).
 */
export async function benchWebhookThroughput(
  options: { deliveries?: number; pullRequests?: number; database?: BenchDatabase } = {},
): Promise<WebhookBenchResult> {
  const choice = options.database ?? { kind: "pglite" };
  const deliveries = options.deliveries ?? 100;
  const pullCount = options.pullRequests ?? 20;
  const appId = 31337;
  const secret = "bench-secret";
  const fake = new FakeGitHub();
  await fake.start();
  const server = createServer();
  const { database, remove } = await openBenchDatabase(choice);
  // Set when Probot loads the app (inside createNodeMiddleware).
  const opened: { store: AppStore | null } = { store: null };
  try {
    await prepareDatabase(database, silentLogger);
    const pulls: FakePull[] = Array.from({ length: pullCount }, (_, index) => ({
      number: index + 1,
      headSha: (index + 1).toString(16).padStart(40, "0"),
      headRepo: `${OWNER}/${REPO}`,
      headBranch: `branch-${index}`,
      author: `author${index}`,
    }));
    const artifacts: Record<number, Uint8Array> = {};
    const zip = zipScorecard(makeTestScorecard({ scores: Array.from({ length: 50 }, (_, index) => 0.9 + index / 100) }));
    for (let index = 0; index < deliveries; index++) artifacts[10_000 + index] = zip;
    serveRepository(fake, { owner: OWNER, repo: REPO, appId, pulls, artifacts });

    const probot = await createTestProbot({ fakeUrl: fake.url, appId, secret, app: false });
    const jobEnded = new Map<string, number>();
    const waiting = new Map<string, () => void>();
    const followEnds = (work: AppStore["work"]): void => {
      work.events.on("ended", ({ key, outcome }) => {
        if (outcome === "retry") return;
        jobEnded.set(key, performance.now());
        waiting.get(key)?.();
      });
    };
    const ended = async (key: string): Promise<number> =>
      jobEnded.get(key) ??
      (await new Promise<number>((resolve) => {
        waiting.set(key, () => resolve(jobEnded.get(key) ?? performance.now()));
      }));
    // The store is made with the app's own logger, as bot/server.ts makes it.
    const appFn = createSpeedgateApp({
      store: (app) => {
        const store = databaseAppStore({ database, log: app.log, logger: silentLogger, pollIntervalMs: 100 });
        followEnds(store.work);
        opened.store = store;
        return store;
      },
    });
    const middleware = await createNodeMiddleware(appFn, { probot });
    server.on("request", (request, response) => {
      void middleware(request, response, () => response.writeHead(404).end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`;

    const latestRun = new Map<number, number>();
    const sends = Array.from({ length: deliveries }, (_, index) => {
      const pull = pulls[index % pullCount] as FakePull;
      const runId = 10_000 + index;
      latestRun.set(pull.number, runId);
      const payload = workflowRunCompleted({
        id: runId,
        headSha: pull.headSha,
        headBranch: pull.headBranch,
        headRepo: pull.headRepo,
        startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
      });
      return { payload, pull };
    });
    const started = performance.now();
    const results = await Promise.all(
      sends.map(async ({ payload }, index) => {
        const sent = performance.now();
        const status = await sendWebhook(url, { event: "workflow_run", payload, secret });
        const acked = performance.now() - sent;
        // The card's job on the pull request's lane (bot/handlers/post-scorecard.ts).
        const posted =
          status === 200 ? (await ended(`run:${`${OWNER}/${REPO}`.toLowerCase()}:${10_000 + index}:1:publish`)) - sent : Number.NaN;
        return { ok: status === 200, ackMs: acked, ms: posted };
      }),
    );
    const wallMs = performance.now() - started;
    const latencies = results.map((result) => result.ms).sort((a, b) => a - b);
    const acks = results.map((result) => result.ackMs).sort((a, b) => a - b);
    const handled = results.filter((result) => result.ok).length;
    const commented = new Set(fake.comments.map((comment) => comment.issueNumber));
    const stale = fake.comments.filter((comment) => readRunStamp(comment.body)?.runId !== latestRun.get(comment.issueNumber)).length;
    const figures = {
      deliveries,
      pullRequests: pullCount,
      handled,
      comments: fake.comments.length,
      duplicateComments: fake.comments.length - commented.size,
      staleComments: stale,
      apiViolations: fake.violations.length,
      ackMedianMs: Math.round(percentile(acks, 0.5)),
      ackP99Ms: Math.round(percentile(acks, 0.99)),
      latencyMedianMs: Math.round(percentile(latencies, 0.5)),
      latencyP99Ms: Math.round(percentile(latencies, 0.99)),
      throughputPerS: Math.round((deliveries / (wallMs / 1000)) * 10) / 10,
      wallMs: Math.round(wallMs),
    };
    const goals = {
      everyDeliveryHandled: handled === deliveries && commented.size === pullCount,
      zeroDuplicateComments: figures.duplicateComments === 0,
      latestCardKept: stale === 0,
      noApiViolations: figures.apiViolations === 0,
    };
    return {
      name: "webhook-throughput",
      database: choice.kind,
      figures,
      goals,
      met: Object.values(goals).every(Boolean),
      notes: [
        `In-process app behind Probot's HTTP middleware with signature checks, its work in ` +
          `${choice.kind === "pglite" ? "PGlite (a fresh folder)" : "a fresh database on a PostgreSQL server"}; Octokit retries and ` +
          `throttling off.`,
        "Deployed with `npm run bot`, Probot's throttling paces writes to about one per second per installation, as GitHub asks; " +
          "that, not the app, then bounds throughput.",
      ],
    };
  } finally {
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    await opened.store?.close();
    await database.close();
    await remove();
    await fake.stop();
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const serverUrl = process.env.SPEEDGATE_TEST_DATABASE_URL;
  const result = await benchWebhookThroughput(serverUrl ? { database: { kind: "postgres", serverUrl } } : {});
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exitCode = result.met ? 0 : 1;
}
