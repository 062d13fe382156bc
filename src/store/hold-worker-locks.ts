import pg from "pg";
import type { Logger } from "../logger.js";

/*
 * On a PostgreSQL server, each of this replica's worker pools holds a session-level advisory lock keyed by its
 * pool id (the id graphile-worker locks jobs with) on one connection of its own, outside the shared pool. The
 * server drops a session's advisory locks the moment the session ends, so a replica that was killed (SIGKILL,
 * an OOM kill, a lost machine) leaves its jobs locked under ids whose advisory locks nobody holds: dead, proven,
 * with no heartbeat to wait for (GoodJob holds its jobs by advisory lock for the same reason; graphile-worker
 * and pg-boss only know a dead worker by time). Beside the pool's own heartbeat (written through the shared pool,
 * as before, for the stale wait) this session writes a marker row, `lock:<pool id>`, after it took the lock, so a
 * marker beaten after the server's start proves the lock was held then (src/store/find-proven-dead-owners.ts reads
 * both). A pool whose lock could not be taken has no fresh marker and is left to the stale wait.
 */

/** The advisory lock key of a worker pool id: the same expression the proof's query computes on the server. */
export const OWNER_LOCK_KEY_SQL = "hashtextextended('speedgate worker pool ' || $1::text, 0)";
/** The heartbeat row that says a pool's lock was taken: its owner id with this prefix (no job is locked by such an id). */
export const LOCK_MARKER_PREFIX = "lock:";

const marker = (ownerId: string): string => `${LOCK_MARKER_PREFIX}${ownerId}`;

export class WorkerLockSession {
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  readonly #owners = new Set<string>();
  /** Owners whose lock the current session holds (advisory locks count: taken once per session). */
  readonly #locked = new Set<string>();
  #closed = false;
  // One statement at a time on the session, in the order asked: a beat never runs before the lock it proves.
  #chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly logger: Logger,
  ) {}

  /** Takes the pool's lock, then writes its marker: from then on its death is provable. */
  async register(ownerId: string): Promise<void> {
    this.#owners.add(ownerId);
    await this.#run(async (client) => {
      if (!this.#owners.has(ownerId)) return;
      if (!this.#locked.has(ownerId) && !(await this.#take(client, ownerId))) return;
      await beatOn(client, [marker(ownerId)]);
    });
  }

  /** The pool ended: its lock goes (its jobs, if any are still locked, are a dead pool's). */
  async unregister(ownerId: string): Promise<void> {
    if (!this.#owners.delete(ownerId)) return;
    await this.#run(async (client) => {
      await client.query("DELETE FROM speedgate.worker_heartbeats WHERE owner_id = $1", [marker(ownerId)]);
      if (!this.#locked.delete(ownerId)) return;
      await client.query(`SELECT pg_advisory_unlock(${OWNER_LOCK_KEY_SQL})`, [ownerId]);
    });
  }

  /** Beats the markers of the pools whose locks this session holds (the pools' own heartbeats go through the pool). */
  async beat(): Promise<void> {
    await this.#run(async (client) => {
      const held = [...this.#locked].map(marker);
      if (held.length > 0) await beatOn(client, held);
    });
  }

  /** Removes the markers and ends the session: the server drops every lock it held. */
  async close(): Promise<void> {
    const markers = [...this.#owners].map(marker);
    if (markers.length > 0 && this.#client)
      await this.#run(async (client) => {
        await client.query("DELETE FROM speedgate.worker_heartbeats WHERE owner_id = ANY($1::text[])", [markers]);
      }).catch(() => undefined);
    this.#closed = true;
    await this.#chain.catch(() => undefined);
    const client = this.#client;
    this.#client = null;
    this.#owners.clear();
    this.#locked.clear();
    await client?.end().catch(() => undefined);
  }

  async #run(work: (client: pg.Client) => Promise<void>): Promise<void> {
    const next = this.#chain.then(
      async () => await work(await this.#session()),
      async () => await work(await this.#session()),
    );
    this.#chain = next.catch(() => undefined);
    await next;
  }

  async #session(): Promise<pg.Client> {
    if (this.#closed) throw new Error("the worker lock session is closed");
    if (this.#client) return this.#client;
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = null;
    });
    return await this.#connecting;
  }

  /**
   * Tries the pool's lock, never waits for it: only a pool id's hash colliding with a live pool's could hold it. That pool
   * then has no marker: it is judged by its heartbeat alone.
   */
  async #take(client: pg.Client, ownerId: string): Promise<boolean> {
    const { rows } = await client.query<{ taken: boolean }>(`SELECT pg_try_advisory_lock(${OWNER_LOCK_KEY_SQL}) AS taken`, [ownerId]);
    if (rows[0]?.taken === true) {
      this.#locked.add(ownerId);
      return true;
    }
    await client.query("DELETE FROM speedgate.worker_heartbeats WHERE owner_id = $1", [marker(ownerId)]);
    this.logger.warn(`job queue: worker pool ${ownerId}'s lock is held by another session; its death cannot be proven, only waited for`);
    return false;
  }

  async #open(): Promise<pg.Client> {
    const client = new pg.Client({ ...this.connection, application_name: "speedgate worker locks" });
    const lost = (reason: string): void => {
      if (this.#client !== client) return;
      this.#client = null;
      this.#locked.clear();
      if (this.#closed) return;
      // Until the locks are held again another replica's sweep would find this live replica's pools lockless and take
      // their jobs: retake them at once, not at the next beat. (Its dispatches stay at most once: the outbox.)
      this.logger.warn(`job queue: the session holding this replica's worker locks ended (${reason}); retaking them on a new one`);
      void this.#run(() => Promise.resolve()).then(
        () => this.logger.info(`job queue: retook the locks of ${this.#locked.size} worker pool(s) on a new session`),
        (error: unknown) => {
          this.logger.warn(
            `job queue: could not retake the worker locks yet (${(error as Error).message}); the next heartbeat tries again`,
          );
        },
      );
    };
    client.on("error", (error) => lost(error.message));
    client.on("end", () => lost("the server closed it"));
    try {
      await client.connect();
      // An idle_session_timeout set for the role would end this idle session and drop the locks of a live replica.
      await client.query("SELECT set_config('idle_session_timeout', '0', false)").catch(() => undefined);
      // A new session holds nothing: every registered pool's lock is taken again before anything beats on it.
      for (const ownerId of this.#owners) await this.#take(client, ownerId);
    } catch (error) {
      this.#locked.clear();
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#client = client;
    return client;
  }
}

async function beatOn(client: pg.Client, ownerIds: readonly string[]): Promise<void> {
  await client.query(
    `INSERT INTO speedgate.worker_heartbeats (owner_id, beat_at)
     SELECT unnest($1::text[]), now()
     ON CONFLICT (owner_id) DO UPDATE SET beat_at = now()`,
    [ownerIds],
  );
}
