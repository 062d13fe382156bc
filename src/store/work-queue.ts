import { EventEmitter } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import {
  type Job,
  type JobHelpers,
  type Runner,
  type TaskList,
  type WorkerEvents,
  type WorkerUtils,
  makeWorkerUtils,
  run,
} from "graphile-worker";
import type { Logger } from "../logger.js";
import type { Database } from "./database.js";
import { type EnqueueResult, type WorkItem, enqueueWork } from "./enqueue-work.js";
import { createGraphileLogger } from "./graphile-logger.js";
import { findProvenDeadOwners } from "./find-proven-dead-owners.js";
import { handBackJobs } from "./hand-back-jobs.js";
import { WorkerLockSession } from "./hold-worker-locks.js";
import { DEFAULT_LIVENESS, type LivenessPolicy, beat, forgetOwners, releaseDeadOwners, releaseOwners } from "./track-worker-liveness.js";

/*
 * The durable job queue: graphile-worker on the app's database (docs/architecture.md says why). Jobs
 * are rows, so they survive restarts; a failed one is retried with graphile-worker's backoff (e^n s
 * after the n-th failure); replicas share them with SKIP LOCKED, so no job runs twice at once; a
 * lane (`queue_name`) runs its jobs one at a time.
 */

export interface WorkContext {
  key: string | null;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** When this run throws, the job is given up: leave a visible trace (a failed check) before throwing. */
  isFinalAttempt: boolean;
  /** Aborted when the queue is stopping and the job should end early. */
  signal: AbortSignal;
  logger: Logger;
}

/** Throw to retry later (a transient failure); return to finish the job, also after a definite refusal. */
export type WorkHandler = (payload: unknown, context: WorkContext) => Promise<void>;

export interface WorkQueueOptions {
  database: Database;
  handlers: Record<string, WorkHandler>;
  logger: Logger;
  /** Jobs run at once by this replica (lanes still run one at a time). */
  concurrency?: number;
  /** How often idle workers look for due jobs (retries); new jobs wake them through LISTEN/NOTIFY or `nudge`. */
  pollIntervalMs?: number;
  liveness?: LivenessPolicy;
}

export interface WorkQueue {
  /** Stores a job (see enqueueWork) and wakes this replica's workers. */
  enqueue(item: WorkItem): Promise<EnqueueResult>;
  /** graphile-worker's events (job:success, job:error, job:failed, …), for logs, metrics and tests. */
  readonly events: WorkerEvents;
  /** This replica's running worker pools, by the id they lock jobs with (graphile-worker's locked_by). */
  readonly ownerIds: readonly string[];
  /**
   * Resolves once every pool running now could be proven dead if this process died: on PostgreSQL its advisory
   * lock is held and its first heartbeat written (src/store/hold-worker-locks.ts); on PGlite at once.
   */
  provable(): Promise<void>;
  /**
   * Lets running jobs finish, then releases everything; jobs not started stay stored for the next process.
   * With `graceMs`, a job still running after it (stuck in a GitHub call's retries) is not waited for: it is
   * handed back to the queue with its attempt (handBackJobs) and runs again at the next start; the process
   * is expected to exit, which ends it.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

export const DEFAULT_CONCURRENCY = 4;

/**
 * The worker pools this process runs on each PGlite data folder (by the database's description). One process owns
 * a folder, so an owner of a locked job missing here belongs to a process that died (src/store/find-proven-dead-owners.ts).
 */
const pglitePools = new Map<string, Set<string>>();

function localPools(database: Database): Set<string> {
  let pools = pglitePools.get(database.description);
  if (!pools) {
    pools = new Set();
    pglitePools.set(database.description, pools);
  }
  return pools;
}

function contextFor(job: Job, helpers: JobHelpers, logger: Logger): WorkContext {
  return {
    key: job.key ?? null,
    attempt: job.attempts,
    maxAttempts: job.max_attempts,
    isFinalAttempt: job.attempts >= job.max_attempts,
    signal: helpers.abortSignal ?? new AbortController().signal,
    logger,
  };
}

function wrapHandlers(handlers: Record<string, WorkHandler>, logger: Logger): TaskList {
  const tasks: TaskList = {};
  for (const [name, handler] of Object.entries(handlers)) {
    tasks[name] = async (payload, helpers) => {
      const context = contextFor(helpers.job, helpers, logger);
      try {
        await handler(payload, context);
      } catch (error) {
        const what =
          `job ${helpers.job.id} ` +
          `(${name}${context.key ? `, ${context.key}` : ""}) attempt ` +
          `${context.attempt} of ${context.maxAttempts}`;
        const reason = error instanceof Error ? error.message : String(error);
        if (context.isFinalAttempt) logger.error(`${what} failed and is given up: ${reason}`);
        else logger.warn(`${what} failed, to be retried: ${reason}`);
        throw error;
      }
    };
  }
  return tasks;
}

/** How long to wait before starting the runner again after it stopped on its own (a long database outage). */
const RESTART_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

export async function startWorkQueue(options: WorkQueueOptions): Promise<WorkQueue> {
  const { database, logger } = options;
  const liveness = options.liveness ?? DEFAULT_LIVENESS;
  const graphileLogger = createGraphileLogger(logger);
  const noPreparedStatements = database.kind === "pglite";
  const events: WorkerEvents = new EventEmitter() as WorkerEvents;
  let stopping: Promise<void> | null = null;
  const stopSignal = new AbortController();
  // Worker pools of this replica that are running: only these beat. graphile-worker locks jobs by pool id.
  const pools = new Map<string, (count: number) => void>();
  // Pools that ended on their own (a database outage): their jobs stay locked until released.
  const endedPools: string[] = [];
  // PostgreSQL: each pool's advisory lock, on a session of this replica's own. PGlite: this process's pools on the folder.
  const locks = database.kind === "postgres" ? new WorkerLockSession(database.connection, logger) : null;
  const registrations = new Map<string, Promise<void>>();
  events.on("pool:create", ({ workerPool }) => {
    if (locks) {
      const registered = locks.register(workerPool.id).catch((error: unknown) => {
        logger.warn(
          `job queue: could not take worker pool ${workerPool.id}'s lock (${(error as Error).message}); ` +
            "if this process dies, its jobs wait for the heartbeat's stale wait",
        );
      });
      registrations.set(workerPool.id, registered);
    } else localPools(database).add(workerPool.id);
    pools.set(workerPool.id, (count) => {
      // A pool that is shutting down (a database outage ends it) asserts on a nudge before it says it
      // is released; a nudge only saves a poll, and the job is stored, so the next pool runs it.
      try {
        workerPool.nudge(count);
      } catch (error) {
        logger.debug(`job queue: not nudged, its worker pool is stopping (${(error as Error).message})`);
      }
    });
  });
  events.on("pool:release", ({ workerPool }) => {
    pools.delete(workerPool.id);
    registrations.delete(workerPool.id);
    // An ended pool runs nothing: its jobs left locked are a dead pool's, to be released (below or by any replica).
    if (locks) void locks.unregister(workerPool.id).catch(() => undefined);
    else localPools(database).delete(workerPool.id);
    if (!stopping) endedPools.push(workerPool.id);
  });
  events.on("pool:listen:error", ({ error }) => {
    logger.warn(`job queue: lost its LISTEN connection (${(error as Error).message}); reconnecting, polling meanwhile`);
  });

  const utils: WorkerUtils = await makeWorkerUtils({ pgPool: database.pool, logger: graphileLogger, noPreparedStatements });
  const launch = async (): Promise<Runner> =>
    await run({
      pgPool: database.pool,
      taskList: wrapHandlers(options.handlers, logger),
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      pollInterval: options.pollIntervalMs ?? (database.kind === "pglite" ? 500 : 2_000),
      noHandleSignals: true,
      noPreparedStatements,
      parsedCronItems: [],
      logger: graphileLogger,
      events,
      // Batching (even with no delay) makes graphile-worker retry recording a job's end through a
      // database outage (20 tries, up to 30 s apart) instead of dropping the promise.
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    });

  let runner: Runner;
  try {
    runner = await launch();
  } catch (error) {
    await locks?.close();
    await utils.release();
    throw error;
  }

  // graphile-worker shuts its pool down when it cannot record a job's end (0.17.3 does not retry that,
  // despite its batch retry options); the replica must not go on accepting work nobody runs, so the
  // runner is started again once the database answers, and the ended pool's jobs are handed back at
  // once: that pool is known dead, no need to wait for its heartbeat to go stale.
  let restarting: Promise<void> = Promise.resolve();
  const supervise = (watched: Runner): void => {
    watched.promise.then(
      () => onRunnerEnd(watched, null),
      (error: unknown) => onRunnerEnd(watched, error),
    );
  };
  const onRunnerEnd = (ended: Runner, error: unknown): void => {
    if (stopping || ended !== runner) return;
    const reason = error instanceof Error ? error.message : "it stopped";
    restarting = (async () => {
      for (let attempt = 0; !stopping; attempt++) {
        const wait = RESTART_DELAYS_MS[Math.min(attempt, RESTART_DELAYS_MS.length - 1)] ?? 30_000;
        logger.error(`job queue: the runner ended (${reason}); starting it again in ${Math.round(wait / 1000)} s`);
        try {
          await delay(wait, undefined, { signal: stopSignal.signal });
        } catch {
          return;
        }
        try {
          runner = await launch();
          supervise(runner);
          logger.info("job queue: the runner is running again");
          const ended = endedPools.splice(0);
          await releaseOwners(database.pool, utils, ended, "ended with the runner", logger).catch((releaseError: unknown) => {
            endedPools.push(...ended);
            logger.warn(
              `job queue: could not release the ended pool's jobs yet (${(releaseError as Error).message}); the heartbeat sweep will`,
            );
          });
          return;
        } catch (launchError) {
          logger.warn(`job queue: could not start the runner: ${(launchError as Error).message}`);
        }
      }
    })();
  };
  supervise(runner);

  let beating: Promise<void> = Promise.resolve();
  let ticking = false;
  const tick = (): void => {
    // A sweep still running (a slow database) is not overlapped: two would release one dead pool twice.
    if (ticking) return;
    ticking = true;
    beating = (async () => {
      try {
        await beat(database.pool, [...pools.keys()]);
        // The lock session's markers apart: a session that cannot connect (the server at max_connections) must not stop
        // the pools' own heartbeats, or a live replica's long job would be taken as a silent one's.
        await locks?.beat().catch((error: unknown) => {
          logger.warn(`job queue: could not beat the worker locks' markers: ${(error as Error).message}`);
        });
        // Proven dead first (a killed process: at once), then silent for staleAfterMs (whatever could not be proven).
        const live = locks ? [...pools.keys()] : [...localPools(database)];
        const proven = await findProvenDeadOwners(database.pool, database.kind, live);
        await releaseOwners(
          database.pool,
          utils,
          proven,
          database.kind === "pglite"
            ? "belonged to a process that no longer runs (this process owns the PGlite data folder alone)"
            : "lost their database session (their advisory locks are gone: the process ended)",
          logger,
        );
        const stale = await releaseDeadOwners(database.pool, utils, liveness.staleAfterMs, logger);
        if (proven.length + stale.length > 0) for (const nudge of pools.values()) nudge(proven.length + stale.length);
        else logger.debug(`job queue: ${pools.size} pool(s) beat; no dead pool holds a job`);
      } catch (error) {
        // The database may be away; the next beat tries again, and staleAfterMs leaves room for it.
        logger.warn(`job queue: heartbeat failed: ${(error as Error).message}`);
      } finally {
        ticking = false;
      }
    })();
  };
  tick();
  const timer = setInterval(tick, liveness.intervalMs);
  timer.unref();

  return {
    events,
    get ownerIds() {
      return [...pools.keys()];
    },
    async provable() {
      await Promise.all([...registrations.values()]);
    },
    async enqueue(item) {
      const result = await enqueueWork(database.pool, item);
      if (result.stored) for (const nudge of pools.values()) nudge(1);
      return result;
    },
    stop(stopOptions = {}) {
      stopping ??= (async () => {
        clearInterval(timer);
        stopSignal.abort();
        await beating;
        await restarting;
        const ownerIds = [...pools.keys()];
        const stopped = runner.stop().then(
          () => true,
          (error: unknown) => {
            logger.warn(`job queue: the runner did not stop cleanly: ${(error as Error).message}`);
            return true;
          },
        );
        const { graceMs } = stopOptions;
        let graceTimer: NodeJS.Timeout | undefined;
        const graceOver = new Promise<false>((resolve) => {
          if (graceMs !== undefined) graceTimer = setTimeout(() => resolve(false), graceMs);
        });
        const finished = await Promise.race([stopped, graceOver]);
        clearTimeout(graceTimer);
        if (!finished) {
          const handed = await handBackJobs(database.pool, ownerIds).catch((error: unknown) => {
            logger.warn(`job queue: could not hand back the running jobs (${(error as Error).message}); the heartbeat sweep will`);
            return 0;
          });
          logger.warn(
            `job queue: ${handed} running job(s) did not finish within ${Math.round((graceMs ?? 0) / 100) / 10} s of the stop; ` +
              "handed back, they run again at the next start",
          );
        }
        await forgetOwners(database.pool, ownerIds).catch((error: unknown) => {
          logger.warn(`job queue: could not remove this replica's heartbeats: ${(error as Error).message}`);
        });
        await locks?.close();
        if (!locks) for (const id of ownerIds) localPools(database).delete(id);
        await utils.release();
      })();
      return stopping;
    },
  };
}
