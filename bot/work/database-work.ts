import type { Database } from "../../src/store/database.js";
import type { Logger } from "../../src/logger.js";
import { type WorkHandler, type WorkQueue, startWorkQueue } from "../../src/store/work-queue.js";
import { type AppLog, type JobHandlers, TASKS, type WorkRequest, type WorkStore, createWorkEvents, runJob } from "./app-work.js";

/** A delivery must be answered inside Probot's 9 s: a store that takes longer is a failure (5xx), not a 202. */
export const STORE_TIMEOUT_MS = 5_000;

export interface DatabaseWorkOptions {
  database: Database;
  log: AppLog;
  logger: Logger;
  concurrency?: number;
  pollIntervalMs?: number;
  /** Attempts before work is given up (graphile-worker waits e^n s after the n-th failure; 8 ≈ 29 min). */
  maxAttempts?: number;
  /** Told when storing a delivery's work failed (the database is away), so the app can ask for redeliveries once it is back. */
  onStoreFailure?: (error: unknown) => void;
}

interface Envelope {
  delivery: string | null;
  /** The work a delivery stored, this job's or the one whose follow-up it is. */
  origin: string | null;
  data: Record<string, unknown>;
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The deployed work store: each work request is a graphile-worker job in the app's database
 * (src/store/work-queue.ts), stored with its receipt in one statement before the delivery is answered.
 * Work given up after its last attempt releases its receipt, so GitHub's redelivery (or the one the app
 * asks for) gets another try, as #12's ledger released a failed delivery's keys.
 */
export class DatabaseWork implements WorkStore {
  readonly events = createWorkEvents();
  #queue: WorkQueue | null = null;

  constructor(private readonly options: DatabaseWorkOptions) {}

  async start(handlers: JobHandlers): Promise<void> {
    const { database, log } = this.options;
    const tasks: Record<string, WorkHandler> = {};
    for (const task of TASKS) {
      tasks[task] = async (payload, context) => {
        const envelope = (payload ?? {}) as Partial<Envelope>;
        const key = context.key ?? `${task}:unkeyed`;
        await runJob(
          handlers,
          task,
          envelope.data ?? {},
          { key, attempt: context.attempt, isFinalAttempt: context.isFinalAttempt, deliveryId: envelope.delivery ?? null },
          async (work) => await this.#store(work, envelope.origin ?? key),
          this.events,
          log,
          // Given up: the delivery's work is forgotten, so that its redelivery is done again, not refused as a copy.
          async () => {
            await database.pool
              .query("DELETE FROM speedgate.work_receipts WHERE job_key = ANY($1)", [[key, envelope.origin ?? key]])
              .catch(() => undefined);
          },
        );
      };
    }
    this.#queue = await startWorkQueue({
      database,
      handlers: tasks,
      logger: this.options.logger,
      ...(this.options.concurrency !== undefined ? { concurrency: this.options.concurrency } : {}),
      ...(this.options.pollIntervalMs !== undefined ? { pollIntervalMs: this.options.pollIntervalMs } : {}),
    });
  }

  async submit(work: WorkRequest): Promise<{ stored: boolean }> {
    return await this.#store(work, null);
  }

  async #store(work: WorkRequest, origin: string | null): Promise<{ stored: boolean }> {
    const queue = this.#queue;
    if (!queue) throw new Error("the work queue is not started");
    let result: { stored: boolean };
    try {
      result = await withTimeout(
        queue.enqueue({
          task: work.task,
          payload: { delivery: work.deliveryId, origin, data: work.payload } satisfies Envelope,
          key: work.key,
          lane: work.lane,
          deliveryId: work.deliveryId,
          ...(this.options.maxAttempts !== undefined ? { maxAttempts: this.options.maxAttempts } : {}),
        }),
        STORE_TIMEOUT_MS,
        "storing the work in the database",
      );
    } catch (error) {
      this.options.onStoreFailure?.(error);
      throw error;
    }
    this.events.emit("stored", { key: work.key, stored: result.stored, deliveryId: work.deliveryId });
    return result;
  }

  async stop(options: { graceMs?: number } = {}): Promise<void> {
    await this.#queue?.stop(options);
  }
}
