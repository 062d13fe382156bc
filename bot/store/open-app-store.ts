import type { Probot } from "probot";
import type { Database } from "../../src/store/database.js";
import { DEFAULT_CONCURRENCY } from "../../src/store/work-queue.js";
import type { AppStore } from "./app-store.js";
import { databaseAppStore } from "./database-app-store.js";
import { openAppDatabase } from "./open-app-database.js";
import { probotLogger } from "./probot-logger.js";
import { OutageRedelivery } from "./redeliver-after-outage.js";
import { RedeliverAfterRefusal, redeliverAfterMs } from "./redeliver-after-refusal.js";
import { redeliverSince } from "./redeliver-on-start.js";

export interface OpenedAppStore {
  store: AppStore;
  database: Database;
  outage: OutageRedelivery;
  /** Told of each delivery the app answered 5xx or 408 (bot/guard-webhook-body.ts). */
  refused: RedeliverAfterRefusal;
  /** Running jobs finish (within `graceMs`, else they are handed back), stored ones wait for the next start; the database closes. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** SPEEDGATE_WORKERS: jobs one replica runs at once (lanes still run one at a time). */
export function workerConcurrency(env: NodeJS.ProcessEnv): number {
  const raw = env.SPEEDGATE_WORKERS?.trim();
  if (!raw) return DEFAULT_CONCURRENCY;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 64)
    throw new Error(`SPEEDGATE_WORKERS: expected a whole number from 1 to 64, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * The deployed app's store: opens the database named by the environment (DATABASE_URL, else the PGlite
 * folder SPEEDGATE_DATA_DIR), migrates it before any delivery is accepted, and wires every part of the
 * app's state to it.
 */
export async function openAppStore(app: Probot, env: NodeJS.ProcessEnv): Promise<OpenedAppStore> {
  const logger = probotLogger(app);
  const concurrency = workerConcurrency(env);
  const database = await openAppDatabase(env, logger, concurrency);
  const outage = new OutageRedelivery(app, database, logger);
  const refused = new RedeliverAfterRefusal(
    async (since, maxAsks) => await redeliverSince(app, database, { since, logger, maxAsks }),
    logger,
    redeliverAfterMs(env),
  );
  const store = databaseAppStore({
    database,
    log: app.log,
    logger,
    concurrency,
    onStoreFailure: () => outage.noticeFailure(),
  });
  return {
    store,
    database,
    outage,
    refused,
    close: async (stopOptions) => {
      await refused.stop();
      await outage.stop();
      await store.close(stopOptions);
      await database.close();
    },
  };
}
