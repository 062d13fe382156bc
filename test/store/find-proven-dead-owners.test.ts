import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Logger } from "../../src/logger.js";
import { silentLogger } from "../../src/logger.js";
import type { Database } from "../../src/store/database.js";
import { enqueueWork } from "../../src/store/enqueue-work.js";
import { findProvenDeadOwners } from "../../src/store/find-proven-dead-owners.js";
import { OWNER_LOCK_KEY_SQL } from "../../src/store/hold-worker-locks.js";
import { prepareDatabase } from "../../src/store/prepare-database.js";
import { type WorkQueue, startWorkQueue } from "../../src/store/work-queue.js";
import { type TestDatabaseHandle, describeEachBackend, testBackends } from "../support/database/database-backends.js";
import { QueueProbe, deferred } from "../support/database/queue-probe.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * #41: a replica killed mid-job (SIGKILL, an OOM kill) has its jobs handed back at once where its death is proven,
 * not after the heartbeat's 2-minute stale wait; a live replica's job is never taken. Every queue here is given a
 * stale wait of an hour, so only the proof can release a job within the test.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NO_STALE_WAIT = { intervalMs: 100, staleAfterMs: 3_600_000 };

/** A logger that records lines and lets the test await the n-th line matching a pattern (a sweep, a release). */
function watchedLogger(): Logger & { lines: string[]; count: (pattern: RegExp, n: number) => Promise<void> } {
  const lines: string[] = [];
  const waiters: Array<() => boolean> = [];
  const push = (level: string) => (message: string) => {
    lines.push(`${level}: ${message}`);
    for (const waiter of [...waiters]) if (waiter()) waiters.splice(waiters.indexOf(waiter), 1);
  };
  return {
    lines,
    debug: push("debug"),
    info: push("info"),
    warn: push("warn"),
    error: push("error"),
    count: async (pattern, n) =>
      await new Promise<void>((resolve) => {
        const ready = (): boolean => {
          if (lines.filter((line) => pattern.test(line)).length < n) return false;
          resolve();
          return true;
        };
        if (!ready()) waiters.push(ready);
      }),
  };
}

/** A replica in a process of its own (test/support/database/run-queue-process.ts) that stores `jobs` (keys, comma-separated). */
async function startReplicaProcess(target: string, jobs: string): Promise<{ child: ChildProcess; seen: (text: string) => Promise<void> }> {
  // Killed, it leaves PGlite's socket folder behind: in a folder this file removes.
  const temp = await makeTempDir("speedgate-killed-replica-");
  const child = spawn(process.execPath, ["--import", "tsx", "test/support/database/run-queue-process.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: temp,
      SPEEDGATE_TEST_QUEUE_DATABASE: target,
      SPEEDGATE_TEST_QUEUE_JOBS: jobs,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const seen = (text: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (chunk?: Buffer): void => {
        if (chunk) output += chunk.toString();
        if (output.includes(text)) resolve();
      };
      child.stdout?.on("data", check);
      child.stderr?.on("data", check);
      child.once("exit", (code, signal) => reject(new Error(`the replica exited (${code ?? signal}):\n${output}`)));
      check();
    });
  return { child, seen };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

describeEachBackend("a killed replica's jobs, proven dead", (backend) => {
  let handle: TestDatabaseHandle;
  let database: Database | null = null;
  const children: ChildProcess[] = [];
  const queues: WorkQueue[] = [];

  beforeEach(async () => {
    handle = await backend.create();
  });
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.stop();
    for (const child of children.splice(0)) await kill(child);
    await database?.close();
    database = null;
    await handle.destroy();
  });

  const openPrepared = async (): Promise<Database> => {
    database = await handle.open();
    await prepareDatabase(database, silentLogger);
    return database;
  };

  it("hands a SIGKILLed process's job back at the next start or sweep, its attempt counted, with the reason logged", async () => {
    const target = handle.target.kind === "postgres" ? handle.target.url : handle.target.dataDir;
    // The killed process stores the jobs itself and takes the first (PGlite: it owns the folder while it lives).
    const replica = await startReplicaProcess(target, "card,next");
    children.push(replica.child);
    await replica.seen("started card\n");
    await kill(replica.child);
    // PGlite: the folder's lock file names a dead process, so this one takes the folder over.
    await openPrepared();
    const open = database;
    if (!open) throw new Error("no database");
    const locked = await open.pool.query<{ key: string }>("SELECT key FROM graphile_worker.jobs WHERE locked_by IS NOT NULL");
    expect(locked.rows).toEqual([{ key: "card" }]);

    const probe = new QueueProbe();
    const attempts: number[] = [];
    const logger = watchedLogger();
    const survivor = await startWorkQueue({
      database: open,
      logger,
      pollIntervalMs: 100,
      liveness: NO_STALE_WAIT,
      handlers: {
        post: probe.handler((key, context) => {
          if (key === "card") attempts.push(context.attempt);
          return Promise.resolve();
        }),
      },
    });
    queues.push(survivor);
    await probe.until(() => probe.totalSuccesses === 2);
    expect(probe.order).toEqual(["card", "next"]);
    // The killed run counted: a job that kills its process every time is given up after its attempts, not run forever.
    expect(attempts).toEqual([2]);
    const why =
      handle.target.kind === "pglite"
        ? /released the jobs of 1 worker pool\(s\) that belonged to a process that no longer runs/
        : /released the jobs of 1 worker pool\(s\) that lost their database session/;
    expect(logger.lines.filter((line) => why.test(line))).toHaveLength(1);
  });

  it("never takes a live replica's job: a second replica sweeps twenty times while the first one runs it", async () => {
    const open = await openPrepared();
    const running = deferred();
    const release = deferred();
    const probe = new QueueProbe();
    // On the server the first replica is a pool of its own, as another process's would be; on PGlite, a second queue
    // in this process (the only process the folder allows).
    const firstDatabase: Database =
      open.kind === "postgres" ? { ...open, pool: new pg.Pool({ ...open.connection, max: 6 }), close: () => Promise.resolve() } : open;
    firstDatabase.pool.on("error", () => undefined);
    const first = await startWorkQueue({
      database: firstDatabase,
      logger: silentLogger,
      pollIntervalMs: 100,
      liveness: NO_STALE_WAIT,
      handlers: {
        post: probe.handler(async () => {
          running.resolve();
          await release.promise;
        }),
      },
    });
    queues.push(first);
    await first.enqueue({ task: "post", payload: { key: "long" }, key: "long", lane: "o/r#1" });
    await running.promise;
    await first.provable();
    const logger = watchedLogger();
    const second = await startWorkQueue({
      database: open,
      logger,
      pollIntervalMs: 100,
      liveness: NO_STALE_WAIT,
      handlers: { post: probe.handler() },
    });
    queues.push(second);
    try {
      await logger.count(/no dead pool holds a job/, 20);
      const locked = await open.pool.query<{ locked_by: string }>("SELECT locked_by FROM graphile_worker.jobs WHERE key = 'long'");
      expect(locked.rows.map((row) => row.locked_by)).toEqual(first.ownerIds);
      expect(probe.runs.get("long")).toBe(1);
      expect(logger.lines.filter((line) => /released/.test(line))).toEqual([]);
    } finally {
      release.resolve();
      await probe.until(() => probe.totalSuccesses === 1);
      await first.stop();
      queues.splice(queues.indexOf(first), 1);
      if (firstDatabase !== open) await firstDatabase.pool.end();
    }
  });
});

// PGlite holds no lock session (the folder's owner is the proof): the server's half only.
const server = testBackends().find((backend) => backend.name === "postgres");

describe.skipIf(!server?.available)("a live replica whose lock session is cut (postgres)", () => {
  let handle: TestDatabaseHandle;
  let database: Database;

  beforeEach(async () => {
    if (!server) throw new Error("no server backend");
    handle = await server.create();
    database = await handle.open();
    await prepareDatabase(database, silentLogger);
  });
  afterEach(async () => {
    await database.close();
    await handle.destroy();
  });

  it("takes its locks again at once, so its running job is still its own and not proven dead", async () => {
    const running = deferred();
    const release = deferred();
    const probe = new QueueProbe();
    const logger = watchedLogger();
    const queue = await startWorkQueue({
      database,
      logger,
      pollIntervalMs: 100,
      liveness: { intervalMs: 60_000, staleAfterMs: 3_600_000 },
      handlers: {
        post: probe.handler(async () => {
          running.resolve();
          await release.promise;
        }),
      },
    });
    try {
      await queue.enqueue({ task: "post", payload: { key: "long" }, key: "long", lane: null });
      await running.promise;
      await queue.provable();
      // An administrator's pg_terminate_backend (or a proxy's idle cut) ends the session that holds the locks.
      const ended = await database.pool.query<{ ended: boolean }>(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity " +
          "WHERE application_name = 'speedgate worker locks' AND datname = current_database()",
      );
      expect(ended.rows).toEqual([{ ended: true }]);
      await logger.count(/retook the locks of 1 worker pool\(s\) on a new session/, 1);
      expect(await findProvenDeadOwners(database.pool, "postgres", [])).toEqual([]);
      expect(probe.runs.get("long")).toBe(1);
    } finally {
      release.resolve();
      await queue.stop();
    }
  });
});

describeEachBackend("the proof a pool is dead", (backend) => {
  let handle: TestDatabaseHandle;
  let database: Database;

  beforeEach(async () => {
    handle = await backend.create();
    database = await handle.open();
    await prepareDatabase(database, silentLogger);
    await enqueueWork(database.pool, { task: "post", payload: { key: "card" }, key: "card", lane: null });
    await database.pool.query("UPDATE graphile_worker._private_jobs SET locked_by = 'ghost', locked_at = now() WHERE key = 'card'");
  });
  afterEach(async () => {
    await database.close();
    await handle.destroy();
  });

  it("names no owner this process runs, and on the server only one whose lock is free and whose marker is this server's", async () => {
    expect(await findProvenDeadOwners(database.pool, database.kind, ["ghost"])).toEqual([]);
    if (database.kind === "pglite") {
      expect(await findProvenDeadOwners(database.pool, "pglite", [])).toEqual(["ghost"]);
      return;
    }
    // No marker, however fresh its heartbeat: it may have died before it took its lock. Left to the stale wait.
    await database.pool.query("INSERT INTO speedgate.worker_heartbeats (owner_id, beat_at) VALUES ('ghost', now())");
    expect(await findProvenDeadOwners(database.pool, "postgres", [])).toEqual([]);
    // A marker from before the server's start: the restart dropped its lock, which proves nothing about the process.
    await database.pool.query("INSERT INTO speedgate.worker_heartbeats (owner_id, beat_at) VALUES ('lock:ghost', '2000-01-01')");
    expect(await findProvenDeadOwners(database.pool, "postgres", [])).toEqual([]);
    await database.pool.query("UPDATE speedgate.worker_heartbeats SET beat_at = now() WHERE owner_id = 'lock:ghost'");
    // Its lock held by a live session (another replica's): alive, however long it has been silent.
    const holder = new pg.Client(database.connection);
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(${OWNER_LOCK_KEY_SQL})`, ["ghost"]);
      expect(await findProvenDeadOwners(database.pool, "postgres", [])).toEqual([]);
      await holder.query(`SELECT pg_advisory_unlock(${OWNER_LOCK_KEY_SQL})`, ["ghost"]);
      expect(await findProvenDeadOwners(database.pool, "postgres", [])).toEqual(["ghost"]);
    } finally {
      await holder.end();
    }
  });
});
