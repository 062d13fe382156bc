import type { WorkerUtils } from "graphile-worker";
import type { Logger } from "../logger.js";
import type { Queryable } from "./database.js";

/*
 * graphile-worker releases the jobs of a worker pool that died (and its pull request's lane) only after
 * four hours. So every pool beats in speedgate.worker_heartbeats under the id it locks jobs with, and each
 * replica hands back the jobs of owners that stopped beating: a replica killed mid-job delays that job by
 * `staleAfterMs`, not hours.
 */

export interface LivenessPolicy {
  /** How often this replica's pools beat and look for dead ones. */
  intervalMs: number;
  /** An owner silent this long is dead; keep it well above `intervalMs` and above a database hiccup. */
  staleAfterMs: number;
}

export const DEFAULT_LIVENESS: LivenessPolicy = { intervalMs: 15_000, staleAfterMs: 120_000 };

export async function beat(queryable: Queryable, ownerIds: readonly string[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await queryable.query(
    `INSERT INTO speedgate.worker_heartbeats (owner_id, beat_at)
     SELECT unnest($1::text[]), now()
     ON CONFLICT (owner_id) DO UPDATE SET beat_at = now()`,
    [ownerIds],
  );
}

export async function forgetOwners(queryable: Queryable, ownerIds: readonly string[]): Promise<void> {
  if (ownerIds.length === 0) return;
  await queryable.query("DELETE FROM speedgate.worker_heartbeats WHERE owner_id = ANY($1::text[])", [ownerIds]);
}

/**
 * Owners holding a job locked longer than `staleAfterMs` without a recent beat: dead (one that died
 * before its first beat has no row at all, and is found the same way).
 */
export async function findDeadOwners(queryable: Queryable, staleAfterMs: number): Promise<string[]> {
  const { rows } = await queryable.query<{ locked_by: string }>(
    `SELECT DISTINCT j.locked_by
     FROM graphile_worker.jobs j
     WHERE j.locked_by IS NOT NULL
       AND j.locked_at < now() - make_interval(secs => $1::double precision / 1000)
       AND NOT EXISTS (
         SELECT 1 FROM speedgate.worker_heartbeats h
         WHERE h.owner_id = j.locked_by AND h.beat_at >= now() - make_interval(secs => $1::double precision / 1000)
       )`,
    [staleAfterMs],
  );
  return rows.map((row) => row.locked_by);
}

/** Hands the jobs (and lanes) of `ownerIds` back to the queue: their pools are gone. */
export async function releaseOwners(
  queryable: Queryable,
  utils: WorkerUtils,
  ownerIds: readonly string[],
  why: string,
  logger: Logger,
): Promise<void> {
  if (ownerIds.length === 0) return;
  await utils.forceUnlockWorkers([...ownerIds]);
  await forgetOwners(queryable, ownerIds);
  logger.warn(`job queue: released the jobs of ${ownerIds.length} worker pool(s) that ${why} (${ownerIds.join(", ")}); they run again`);
}

export async function releaseDeadOwners(queryable: Queryable, utils: WorkerUtils, staleAfterMs: number, logger: Logger): Promise<string[]> {
  // Rows of pools that stopped without a job locked would otherwise stay forever.
  await queryable.query("DELETE FROM speedgate.worker_heartbeats WHERE beat_at < now() - interval '1 day'");
  const dead = await findDeadOwners(queryable, staleAfterMs);
  await releaseOwners(queryable, utils, dead, "stopped beating", logger);
  return dead;
}
