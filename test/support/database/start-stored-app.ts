import { setTimeout as delay } from "node:timers/promises";
import type { Probot } from "probot";
import type { AppStore } from "../../../bot/store/app-store.js";
import { type SpeedgateAppOptions, createSpeedgateApp } from "../../../bot/index.js";
import { databaseAppStore } from "../../../bot/store/database-app-store.js";
import { silentLogger } from "../../../src/logger.js";
import type { Database } from "../../../src/store/database.js";
import { prepareDatabase } from "../../../src/store/prepare-database.js";
import { createTestProbot } from "../../../harness/fake-github/create-test-probot.js";
import type { TestBackend, TestDatabaseHandle } from "./database-backends.js";

export interface StoredApp {
  probot: Probot;
  store: AppStore;
  database: Database;
  /** Resolves once every piece of work stored so far (and what it stored) has ended done or given up. */
  settled(): Promise<void>;
  /** Stops the queue and closes and removes the database. */
  stop(): Promise<void>;
}

export interface StoredAppOptions {
  fakeUrl: string;
  appId: number;
  backend: TestBackend;
  /** "deployed": bot/app-octokit.ts (Probot's retries and throttling); "plain": both off. */
  octokit: "deployed" | "plain";
  maxAttempts?: number;
  /** Makes a failed job due again as soon as its failure is recorded, instead of graphile-worker's e^n s. */
  expediteRetries?: boolean;
  app?: Omit<SpeedgateAppOptions, "store">;
}

/**
 * The app in-process against the fake with the deployed store (graphile-worker on PGlite or the server),
 * deliveries through probot.receive (answered once the work is stored), and the work followed through the
 * store's events. Logs nothing below fatal.
 */
export async function startStoredApp(options: StoredAppOptions): Promise<StoredApp> {
  const probot = await createTestProbot({
    fakeUrl: options.fakeUrl,
    appId: options.appId,
    octokit: options.octokit,
    logLevel: "fatal",
    app: false,
  });
  const handle: TestDatabaseHandle = await options.backend.create();
  const database = await handle.open({ maxConnections: 10 });
  await prepareDatabase(database, silentLogger);
  const store = databaseAppStore({
    database,
    log: probot.log,
    logger: silentLogger,
    pollIntervalMs: 100,
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
  });
  const outstanding = new Set<string>();
  const waiters = new Set<() => void>();
  const check = (): void => {
    if (outstanding.size > 0) return;
    for (const resolve of waiters) resolve();
    waiters.clear();
  };
  store.work.events.on("stored", ({ key, stored }) => {
    if (stored) outstanding.add(key);
  });
  store.work.events.on("ended", ({ key, outcome }) => {
    if (outcome === "retry") {
      if (options.expediteRetries) void makeDueOnceFailed(database, key);
      return;
    }
    outstanding.delete(key);
    // Follow-ups were stored (and counted) before the job ended.
    check();
  });
  await probot.load(createSpeedgateApp({ ...options.app, store: () => store }));
  return {
    probot,
    store,
    database,
    settled: async () => {
      if (outstanding.size === 0) return;
      await new Promise<void>((resolve) => waiters.add(resolve));
    },
    stop: async () => {
      await store.close();
      await database.close();
      await handle.destroy();
    },
  };
}

/**
 * graphile-worker records a failure after the handler threw, without an event: the job row is watched
 * until it is unlocked with its new run_at, then made due now.
 */
async function makeDueOnceFailed(database: Database, key: string): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const { rowCount } = await database.pool
      .query("UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1 AND locked_at IS NULL AND run_at > now()", [key])
      .catch(() => ({ rowCount: 0 }));
    if (rowCount === 1) return;
    await delay(20);
  }
}
