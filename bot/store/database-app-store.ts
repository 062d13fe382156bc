import type { Probot } from "probot";
import type { Logger } from "../../src/logger.js";
import {
  listCommitTrend,
  listLeaderboard,
  listScoredPullRequests,
  readLeaderboardIssue,
  recordCard,
  recordLeaderboardIssue,
  recordPullRequestState,
} from "../../src/store/card-history.js";
import type { Database } from "../../src/store/database.js";
import { recordCardDocument } from "../../src/store/card-documents.js";
import { runSideEffectOnce } from "../../src/store/run-side-effect-once.js";
import type { AppStore, CardHistory, MainSeriesStore } from "./app-store.js";
import {
  BisectionRunningError,
  finishBisection,
  listBisectionRounds,
  listMergeRounds,
  listBisections,
  listMainSeries,
  readBisection,
  recordChangePoint,
  recordMainRound,
  startBisection,
} from "../../src/store/main-series.js";
import { DatabaseWork } from "../work/database-work.js";
import { DatabaseHeadPushLog } from "./database-head-push-log.js";
import { DatabaseRefusalLimiter } from "./database-refusal-limiter.js";

export interface DatabaseAppStoreOptions {
  database: Database;
  log: Probot["log"];
  logger: Logger;
  concurrency?: number;
  pollIntervalMs?: number;
  maxAttempts?: number;
  now?: () => number;
  onStoreFailure?: (error: unknown) => void;
}

function databaseHistory(database: Database): CardHistory {
  const pool = database.pool;
  return {
    record: async (card) => await recordCard(pool, card),
    recordDocument: async (document) => await recordCardDocument(pool, document),
    trend: async (repository, pullRequest) => await listCommitTrend(pool, repository, pullRequest),
    leaderboard: async (repository) => await listLeaderboard(pool, repository),
    setPullState: async (state) => await recordPullRequestState(pool, state),
    scoredPulls: async (repository) => await listScoredPullRequests(pool, repository),
    leaderboardIssue: async (repository) => await readLeaderboardIssue(pool, repository),
    recordLeaderboardIssue: async (repository, issue) => await recordLeaderboardIssue(pool, repository, issue),
  };
}

function databaseMainSeries(database: Database): MainSeriesStore {
  const pool = database.pool;
  return {
    recordRound: async (record) => await recordMainRound(pool, record),
    startBisection: async (bisection) => {
      try {
        return await startBisection(pool, bisection);
      } catch (error) {
        if (error instanceof BisectionRunningError) return null;
        throw error;
      }
    },
    running: async (repository) => (await listBisections(pool, repository, 20)).find((bisection) => bisection.status === "running") ?? null,
    bisection: async (id) => await readBisection(pool, id),
    rounds: async (bisectionId) => await listBisectionRounds(pool, bisectionId),
    mergeRounds: async (repository, headSha) => await listMergeRounds(pool, repository, headSha),
    finish: async (id, end) => await finishBisection(pool, id, end),
    driftSeries: async (repository, scenario) => await listMainSeries(pool, { repository, scenario, kinds: ["drift"] }),
    recordChangePoint: async (point) => await recordChangePoint(pool, point),
  };
}

/** The deployed store: the app's database (PGlite or a PostgreSQL server) behind every part #12 kept in memory. */
export function databaseAppStore(options: DatabaseAppStoreOptions): AppStore {
  const { database } = options;
  const work = new DatabaseWork({
    database,
    log: options.log,
    logger: options.logger,
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    ...(options.onStoreFailure ? { onStoreFailure: options.onStoreFailure } : {}),
  });
  return {
    work,
    refusals: new DatabaseRefusalLimiter(database.pool, undefined, options.now),
    heads: new DatabaseHeadPushLog(database.pool),
    sideEffects: { once: async (request) => await runSideEffectOnce(database.pool, request) },
    history: databaseHistory(database),
    main: databaseMainSeries(database),
    firstDeliveredAt: async (deliveryId) => {
      const { rows } = await database.pool.query<{ at: Date | null }>(
        "SELECT first_delivered_at AS at FROM speedgate.redeliveries WHERE guid = $1",
        [deliveryId],
      );
      const at = rows[0]?.at;
      return at ? at.getTime() : null;
    },
    close: async (stopOptions) => {
      await work.stop(stopOptions);
    },
  };
}
