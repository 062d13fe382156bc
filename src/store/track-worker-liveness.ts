import type { WorkerUtils } from "graphile-worker";
import type { Logger } from "../logger.js";
import type { Queryable } from "./database.js";

/*
 * graphile-worker releases a crashed worker's jobs (and its pull request's lane) only after four
 * hours. So every worker beats in speedgate.worker_heartbeats, and each replica hands back the jobs of
 * workers that stopped beating: a replica killed mid-job delays that job by `staleAfterMs`, not hours.
 */

export interface LivenessPolicy {
  /** How often this replica's workers beat and look for dead ones. */
  intervalMs: number;
  /** A worker silent this long is dead; keep it well above `intervalMs` and above a database hiccup. */
  staleAfterMs: number;
}

export const DEFAULT_LIVENESS: LivenessPolicy = { intervalMs: 15_000, staleAfterMs: 120_000 };

export async function beat(queryable: Queryable, poolId: string, workerIds: readonly string[]): Promise<void> {
  if (workerIds.length === 0) return;
  await queryable.query(
    `INSERT INTO speedgate.worker_heartbeats (worker_id, pool_id, beat_at)
     SELECT unnest($1::text[]), $2, now()
     ON CONFLICT (worker_id) DO UPDATE SET beat_at = now()`,
    [workerIds, poolId],
  );
}

export async function forgetWorkers(queryable: Queryable, workerIds: readonly string[]): Promise<void> {
  if (workerIds.length === 0) return;
  await queryable.query("DELETE FROM speedgate.worker_heartbeats WHERE worker_id = ANY($1::text[])", [workerIds]);
}

/**
 * Workers holding a job locked longer than `staleAfterMs` without a recent beat: dead (a worker that
 * crashed before its first beat has no row at all, and is found the same way).
 */
export async function findDeadWorkers(queryable: Queryable, staleAfterMs: number): Promise<string[]> {
  const { rows } = await queryable.query<{ locked_by: string }>(
    `SELECT DISTINCT j.locked_by
     FROM graphile_worker.jobs j
     WHERE j.locked_by IS NOT NULL
       AND j.locked_at < now() - make_interval(secs => $1::double precision / 1000)
       AND NOT EXISTS (
         SELECT 1 FROM speedgate.worker_heartbeats h
         WHERE h.worker_id = j.locked_by AND h.beat_at >= now() - make_interval(secs => $1::double precision / 1000)
       )`,
    [staleAfterMs],
  );
  return rows.map((row) => row.locked_by);
}

export async function releaseDeadWorkers(queryable: Queryable, utils: WorkerUtils, staleAfterMs: number, logger: Logger): Promise<string[]> {
  // Rows of workers that stopped without a job locked would otherwise stay forever.
  await queryable.query("DELETE FROM speedgate.worker_heartbeats WHERE beat_at < now() - interval '1 day'");
  const dead = await findDeadWorkers(queryable, staleAfterMs);
  if (dead.length === 0) return dead;
  await utils.forceUnlockWorkers(dead);
  await forgetWorkers(queryable, dead);
  logger.warn(`job queue: released the jobs of ${dead.length} worker(s) that stopped beating (${dead.join(", ")}); they run again`);
  return dead;
}
