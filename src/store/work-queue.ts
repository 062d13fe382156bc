import { EventEmitter } from "node:events";
import { type Job, type JobHelpers, type Runner, type TaskList, type WorkerEvents, type WorkerUtils, makeWorkerUtils, run } from "graphile-worker";
import type { Logger } from "../logger.js";
import type { Database } from "./database.js";
import { type EnqueueResult, type WorkItem, enqueueWork } from "./enqueue-work.js";
import { createGraphileLogger } from "./graphile-logger.js";
import { DEFAULT_LIVENESS, type LivenessPolicy, beat, forgetWorkers, releaseDeadWorkers } from "./track-worker-liveness.js";

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
  /** This replica's worker ids, as they appear in locked_by. */
  readonly workerIds: readonly string[];
  /** Lets running jobs finish, then releases everything; jobs not started stay stored for the next process. */
  stop(): Promise<void>;
}

export const DEFAULT_CONCURRENCY = 4;

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
        const what = `job ${helpers.job.id} (${name}${context.key ? `, ${context.key}` : ""}) attempt ${context.attempt} of ${context.maxAttempts}`;
        const reason = error instanceof Error ? error.message : String(error);
        if (context.isFinalAttempt) logger.error(`${what} failed and is given up: ${reason}`);
        else logger.warn(`${what} failed, to be retried: ${reason}`);
        throw error;
      }
    };
  }
  return tasks;
}

export async function startWorkQueue(options: WorkQueueOptions): Promise<WorkQueue> {
  const { database, logger } = options;
  const liveness = options.liveness ?? DEFAULT_LIVENESS;
  const graphileLogger = createGraphileLogger(logger);
  const noPreparedStatements = database.kind === "pglite";
  const events: WorkerEvents = new EventEmitter() as WorkerEvents;
  const workerIds: string[] = [];
  let poolId = "";
  let nudge: (count: number) => void = () => undefined;
  events.on("pool:create", ({ workerPool }) => {
    poolId = workerPool.id;
    nudge = (count) => workerPool.nudge(count);
  });
  events.on("worker:create", ({ worker }) => {
    workerIds.push(worker.workerId);
  });
  events.on("pool:listen:error", ({ error }) => {
    logger.warn(`job queue: lost its LISTEN connection (${(error as Error).message}); reconnecting, polling meanwhile`);
  });

  const utils: WorkerUtils = await makeWorkerUtils({ pgPool: database.pool, logger: graphileLogger, noPreparedStatements });
  let runner: Runner;
  try {
    runner = await run({
      pgPool: database.pool,
      taskList: wrapHandlers(options.handlers, logger),
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      pollInterval: options.pollIntervalMs ?? (database.kind === "pglite" ? 500 : 2_000),
      noHandleSignals: true,
      noPreparedStatements,
      parsedCronItems: [],
      logger: graphileLogger,
      events,
    });
  } catch (error) {
    await utils.release();
    throw error;
  }

  let beating: Promise<void> = Promise.resolve();
  const tick = (): void => {
    beating = (async () => {
      try {
        await beat(database.pool, poolId, workerIds);
        await releaseDeadWorkers(database.pool, utils, liveness.staleAfterMs, logger);
      } catch (error) {
        // The database may be away; the next beat tries again, and staleAfterMs leaves room for it.
        logger.warn(`job queue: heartbeat failed: ${(error as Error).message}`);
      }
    })();
  };
  tick();
  const timer = setInterval(tick, liveness.intervalMs);
  timer.unref();

  let stopping: Promise<void> | null = null;
  return {
    events,
    workerIds,
    async enqueue(item) {
      const result = await enqueueWork(database.pool, item);
      if (result.stored) nudge(1);
      return result;
    },
    stop() {
      stopping ??= (async () => {
        clearInterval(timer);
        await beating;
        await runner.stop();
        await forgetWorkers(database.pool, workerIds).catch((error: unknown) => {
          logger.warn(`job queue: could not remove this replica's heartbeats: ${(error as Error).message}`);
        });
        await utils.release();
      })();
      return stopping;
    },
  };
}
