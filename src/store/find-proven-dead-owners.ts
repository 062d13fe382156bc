import type { Queryable } from "./database.js";
import { LOCK_MARKER_PREFIX, OWNER_LOCK_KEY_SQL } from "./hold-worker-locks.js";

/*
 * Worker pools holding jobs that are dead beyond doubt, so their jobs may be handed back at once instead of after
 * the heartbeat's stale wait (src/store/track-worker-liveness.ts, 2 minutes). A live pool's job is never taken:
 *
 * - PGlite: one process owns the data folder (src/store/lock-data-folder.ts refuses a second while the first
 *   lives), and this process knows every pool it runs on the folder (`livePools`, filled before a pool locks
 *   its first job: graphile-worker emits pool:create before it spawns the pool's workers). Any other owner of
 *   a locked job is a process that died holding the folder.
 * - PostgreSQL: a pool is dead when its lock session wrote its marker (so its advisory lock was taken before:
 *   src/store/hold-worker-locks.ts), that marker was beaten in the server's current life (a server restart drops
 *   every lock, live replicas' too, and proves nothing), and nobody holds its advisory lock now: its session, and
 *   so its process, has ended. An owner without such a marker (killed before it took its lock) is left to the
 *   stale wait.
 */

export type ProofKind = "pglite" | "postgres";

export async function findProvenDeadOwners(queryable: Queryable, kind: ProofKind, livePools: readonly string[]): Promise<string[]> {
  if (kind === "pglite") {
    const { rows } = await queryable.query<{ locked_by: string }>(
      `SELECT DISTINCT locked_by FROM graphile_worker.jobs WHERE locked_by IS NOT NULL AND NOT (locked_by = ANY($1::text[]))`,
      [livePools],
    );
    return rows.map((row) => row.locked_by);
  }
  const lockKey = OWNER_LOCK_KEY_SQL.replace("$1::text", "j.locked_by");
  const { rows } = await queryable.query<{ locked_by: string }>(
    `SELECT DISTINCT j.locked_by
     FROM graphile_worker.jobs j
     JOIN speedgate.worker_heartbeats h ON h.owner_id = $2 || j.locked_by
     WHERE j.locked_by IS NOT NULL
       AND NOT (j.locked_by = ANY($1::text[]))
       AND h.beat_at > pg_postmaster_start_time()
       AND NOT EXISTS (
         SELECT 1 FROM pg_locks l
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((l.classid::bigint << 32) | l.objid::bigint) = ${lockKey}
       )`,
    [livePools, LOCK_MARKER_PREFIX],
  );
  return rows.map((row) => row.locked_by);
}
