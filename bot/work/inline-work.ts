import type { DeliveryLedger } from "../delivery-ledger.js";
import { KeyedQueue } from "../keyed-queue.js";
import { type AppLog, type JobHandlers, type WorkRequest, type WorkStore, createWorkEvents, runJob } from "./app-work.js";

/**
 * Work done at once, inside the delivery, for unit tests of the jobs: one attempt, in lane order within
 * this process, de-duplicated in memory (#12's keys plus the delivery id). A failure releases the keys and
 * fails the delivery (GitHub then records it as failed). Nothing survives the process: the deployed app
 * uses the database (bot/work/database-work.ts).
 */
export class InlineWork implements WorkStore {
  readonly events = createWorkEvents();
  readonly #lanes = new KeyedQueue();
  #handlers: JobHandlers | null = null;

  constructor(
    private readonly ledger: DeliveryLedger,
    private readonly log: AppLog,
  ) {}

  start(handlers: JobHandlers): Promise<void> {
    this.#handlers = handlers;
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  async submit(work: WorkRequest): Promise<{ stored: boolean }> {
    const keys = work.deliveryId ? [work.key, `delivery:${work.task}:${work.deliveryId}`] : [work.key];
    const stored = await this.ledger.claim(keys);
    this.events.emit("stored", { key: work.key, stored, deliveryId: work.deliveryId });
    if (!stored) return { stored };
    try {
      await this.#lanes.run(work.lane ?? work.key, async () => {
        await runJob(
          this.#handlers,
          work.task,
          work.payload,
          { key: work.key, attempt: 1, isFinalAttempt: true, deliveryId: work.deliveryId },
          async (next) => await this.submit(next),
          this.events,
          this.log,
        );
      });
    } catch (error) {
      await this.ledger.release(keys);
      throw error;
    }
    return { stored };
  }
}
