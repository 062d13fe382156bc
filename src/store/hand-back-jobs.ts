import type { Queryable } from "./database.js";

/**
 * Hands the jobs `ownerIds` hold (and their lanes) back to the queue with the attempt they were taken with
 * given back too, so they run again at once, on this replica's next start or on another: their runs were
 * cut short by a stop (SIGTERM), not failed. graphile-worker's own ways out count the attempt: its forceful
 * shutdown fails the job (a backoff, and a job on its last attempt is never run again) and
 * force_unlock_workers keeps the attempt it took. Written against graphile-worker 0.17's tables, which
 * failJobs and completeJobs write the same way.
 */
export async function handBackJobs(queryable: Queryable, ownerIds: readonly string[]): Promise<number> {
  if (ownerIds.length === 0) return 0;
  const { rows } = await queryable.query<{ handed: string }>(
    `WITH jobs AS (
       UPDATE graphile_worker._private_jobs
       SET locked_by = NULL, locked_at = NULL, attempts = greatest(attempts - 1, 0)
       WHERE locked_by = ANY($1::text[])
       RETURNING id
     ), lanes AS (
       UPDATE graphile_worker._private_job_queues
       SET locked_by = NULL, locked_at = NULL
       WHERE locked_by = ANY($1::text[])
       RETURNING id
     )
     SELECT count(*)::text AS handed FROM jobs`,
    [ownerIds],
  );
  return Number(rows[0]?.handed ?? 0);
}
