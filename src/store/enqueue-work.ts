import type { Queryable } from "./database.js";

/** Work a delivery asks for, stored before the delivery is acknowledged. */
export interface WorkItem {
  /** The handler's name (a task the queue was started with). */
  task: string;
  /** JSON the handler validates; a handler must not trust it more than the delivery it came from. */
  payload: Record<string, unknown>;
  /**
   * What the payload identifies (`comment:123`, `run:456:1`): the same key is stored once, ever, so a
   * redelivery or a replay of the same payload under a new delivery id does nothing.
   */
  key: string;
  /** Work in one lane (a pull request, `owner/repo#12`) runs one at a time; null for none. */
  lane: string | null;
  /** The delivery that asked, for log lines. */
  deliveryId?: string | null;
  /** Attempts before the queue gives up (graphile-worker waits e^n s after the n-th failure). */
  maxAttempts?: number;
}

export interface EnqueueResult {
  /** False when the key was stored before: a duplicate, already done or queued. */
  stored: boolean;
}

export const DEFAULT_MAX_ATTEMPTS = 8;
const KEY_LIMIT = 512;

/**
 * Stores the receipt and the job in one statement, so both or neither exist. The receipt alone decides
 * what is a copy: add_job is reached only for a new key, and the only job it can meet under that key is
 * work given up after its last attempt (its receipt released so a redelivery is done again), which
 * graphile-worker's `replace` mode starts over. Safe on a pool (it is
 * atomic by itself) or on a transaction's client (it commits with the caller's other writes).
 */
export async function enqueueWork(queryable: Queryable, item: WorkItem): Promise<EnqueueResult> {
  if (item.key === "" || item.key.length > KEY_LIMIT)
    throw new Error(`work key must be 1 to ${KEY_LIMIT} characters, got ${item.key.length}`);
  const maxAttempts = item.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`maxAttempts must be a positive integer, got ${maxAttempts}`);
  const { rows } = await queryable.query<{ id: string }>(
    `WITH receipt AS (
       INSERT INTO speedgate.work_receipts (job_key, task, lane, delivery_id)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (job_key) DO NOTHING
       RETURNING job_key
     )
     SELECT (graphile_worker.add_job(
       $2, $5::json,
       queue_name => $3,
       max_attempts => $6,
       job_key => receipt.job_key,
       job_key_mode => 'replace'
     )).id::text AS id
     FROM receipt`,
    [item.key, item.task, item.lane, item.deliveryId ?? null, JSON.stringify(item.payload), maxAttempts],
  );
  return { stored: rows.length > 0 };
}
