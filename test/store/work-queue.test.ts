import pg from "pg";
import { afterEach, beforeEach, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import type { Database } from "../../src/store/database.js";
import { enqueueWork } from "../../src/store/enqueue-work.js";
import { prepareDatabase } from "../../src/store/prepare-database.js";
import { type WorkHandler, type WorkQueue, startWorkQueue } from "../../src/store/work-queue.js";
import { type TestDatabaseHandle, describeEachBackend } from "../support/database/database-backends.js";
import { QueueProbe, deferred } from "../support/database/queue-probe.js";

const FAST = { pollIntervalMs: 100, liveness: { intervalMs: 200, staleAfterMs: 60_000 } };

describeEachBackend("the work queue", (backend) => {
  let handle: TestDatabaseHandle;
  let database: Database;
  const queues: WorkQueue[] = [];

  const start = async (handlers: Record<string, WorkHandler>, on: Database = database, concurrency = 4): Promise<WorkQueue> => {
    const queue = await startWorkQueue({ database: on, handlers, logger: silentLogger, concurrency, ...FAST });
    queues.push(queue);
    return queue;
  };

  beforeEach(async () => {
    handle = await backend.create();
    database = await handle.open();
    await prepareDatabase(database, silentLogger);
  });
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.stop();
    await database.close();
    await handle.destroy();
  });

  it("stores a payload's work once: the same key again, even after the job is done, is not stored", async () => {
    const probe = new QueueProbe();
    const queue = await start({ post: probe.handler() });
    expect(await queue.enqueue({ task: "post", payload: { key: "run:7:1" }, key: "run:7:1", lane: "o/r#1" })).toEqual({ stored: true });
    expect(await queue.enqueue({ task: "post", payload: { key: "run:7:1" }, key: "run:7:1", lane: "o/r#1" })).toEqual({ stored: false });
    await probe.until(() => probe.totalSuccesses === 1);
    // The queue forgets a finished job; the receipt does not.
    expect(await queue.enqueue({ task: "post", payload: { key: "run:7:1" }, key: "run:7:1", lane: "o/r#1" })).toEqual({ stored: false });
    await queue.enqueue({ task: "post", payload: { key: "run:7:2" }, key: "run:7:2", lane: "o/r#1" });
    await probe.until(() => probe.totalSuccesses === 2);
    expect(Object.fromEntries(probe.runs)).toEqual({ "run:7:1": 1, "run:7:2": 1 });
  });

  it("stores the job with the caller's transaction, and not at all when it rolls back", async () => {
    const probe = new QueueProbe();
    const queue = await start({ post: probe.handler() });
    const client = await database.pool.connect();
    try {
      await client.query("BEGIN");
      await enqueueWork(client, { task: "post", payload: { key: "a" }, key: "a", lane: null });
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await queue.enqueue({ task: "post", payload: { key: "a" }, key: "a", lane: null })).toEqual({ stored: true });
    await probe.until(() => probe.totalSuccesses === 1);
    expect(probe.runs.get("a")).toBe(1);
  });

  it("runs one lane's jobs one at a time in the order stored, while other lanes run beside them", async () => {
    const probe = new QueueProbe();
    const otherLaneStarted = deferred();
    let inLane = 0;
    let mostInLane = 0;
    const queue = await start({
      post: probe.handler(async (key) => {
        if (key === "other") {
          otherLaneStarted.resolve();
          return;
        }
        inLane++;
        mostInLane = Math.max(mostInLane, inLane);
        // The first job of the PR's lane holds until a job of another lane has started: were lanes
        // not concurrent, this would never finish.
        if (key === "pr-1") await otherLaneStarted.promise;
        inLane--;
      }),
    });
    const keys = ["pr-1", "pr-2", "pr-3", "pr-4", "pr-5"];
    for (const key of keys) await queue.enqueue({ task: "post", payload: { key }, key, lane: "o/r#1" });
    await queue.enqueue({ task: "post", payload: { key: "other" }, key: "other", lane: "o/r#2" });
    await probe.until(() => probe.totalSuccesses === keys.length + 1);
    expect(mostInLane).toBe(1);
    expect(probe.order.filter((key) => key !== "other")).toEqual(keys);
  });

  it("tells the handler its attempt, and retries a failure until it succeeds", async () => {
    const probe = new QueueProbe();
    const attempts: Array<{ attempt: number; isFinalAttempt: boolean }> = [];
    const queue = await start({
      post: probe.handler((_key, context) => {
        attempts.push({ attempt: context.attempt, isFinalAttempt: context.isFinalAttempt });
        return context.attempt === 1 ? Promise.reject(new Error("GitHub answered 502")) : Promise.resolve();
      }),
    });
    await queue.enqueue({ task: "post", payload: { key: "k" }, key: "k", lane: null, maxAttempts: 2 });
    await probe.until(() => probe.totalSuccesses === 1);
    expect(attempts).toEqual([
      { attempt: 1, isFinalAttempt: false },
      { attempt: 2, isFinalAttempt: true },
    ]);
  });

  it("survives a restart in the middle of a retry: the job still runs, once", async () => {
    const probe = new QueueProbe();
    const first = await start({ post: probe.handler(() => Promise.reject(new Error("GitHub answered 503"))) });
    const failed = new Promise<void>((resolve) => first.events.once("job:error", () => resolve()));
    await first.enqueue({ task: "post", payload: { key: "card" }, key: "card", lane: "o/r#3" });
    await failed;
    // Stopped mid-backoff, as a redeploy does (the stop records the failure), and the database closed as the process ends.
    await first.stop();
    queues.splice(queues.indexOf(first), 1);
    await database.close();

    database = await handle.open();
    // What the store kept, read against the job's own timestamps rather than the clock: a loaded machine
    // may take longer to restart than the backoff lasts, and that must change nothing.
    const waiting = await database.pool.query<{ attempts: number; last_error: string; backoff_s: number; locked: boolean }>(
      "SELECT attempts, last_error, extract(epoch FROM run_at - created_at)::float8 AS backoff_s, locked_at IS NOT NULL AS locked " +
        "FROM graphile_worker.jobs WHERE key = 'card'",
    );
    expect(waiting.rows).toHaveLength(1);
    expect(waiting.rows[0]).toMatchObject({ attempts: 1, locked: false });
    expect(waiting.rows[0]?.last_error).toContain("GitHub answered 503");
    // The retry was put off by graphile-worker's backoff (e^1 s after the first failure, which came after
    // the job was stored), not left due at once.
    expect(waiting.rows[0]?.backoff_s).toBeGreaterThan(2.7);
    const after = new QueueProbe();
    const attempts: number[] = [];
    await start({
      post: after.handler((_key, context) => {
        attempts.push(context.attempt);
        return Promise.resolve();
      }),
    });
    await after.until(() => after.totalSuccesses === 1);
    expect(Object.fromEntries(after.runs)).toEqual({ card: 1 });
    // The new process continued the stored retry: its run is the second attempt, not a fresh first one.
    expect(attempts).toEqual([2]);
    for (const queue of queues.splice(0)) await queue.stop();
    const left = await database.pool.query("SELECT 1 FROM graphile_worker.jobs WHERE key = 'card'");
    expect(left.rowCount).toBe(0);
  });

  it("a stop with a grace does not wait for a job that never ends: handed back with its attempt, the next queue runs it", async () => {
    const started = deferred();
    const stuck = await start({
      post: async () => {
        started.resolve();
        await new Promise<never>(() => undefined);
      },
    });
    await stuck.enqueue({ task: "post", payload: { key: "stuck" }, key: "stuck", lane: "o/r#9", maxAttempts: 1 });
    await started.promise;
    // Without the grace this stop would wait for ever.
    await stuck.stop({ graceMs: 200 });
    queues.splice(queues.indexOf(stuck), 1);
    const { rows } = await database.pool.query<{ attempts: number; locked_by: string | null }>(
      "SELECT attempts, locked_by FROM graphile_worker.jobs WHERE key = 'stuck'",
    );
    // Its only attempt given back: one it was taken with would leave a job that is never run again.
    expect(rows).toEqual([{ attempts: 0, locked_by: null }]);
    const probe = new QueueProbe();
    await start({ post: probe.handler() });
    await probe.until(() => probe.totalSuccesses === 1);
    expect(Object.fromEntries(probe.runs)).toEqual({ stuck: 1 });
  });

  it("shares 100 jobs between two replicas: none lost, none run twice", async () => {
    // Two replicas, each with its own pool and workers, both receiving every delivery (as GitHub's
    // redelivery and a replayed delivery can make them): each job must still run exactly once.
    const second: Database = { ...database, pool: new pg.Pool({ ...database.connection, max: 6 }), close: () => Promise.resolve() };
    second.pool.on("error", () => undefined);
    const probe = new QueueProbe();
    let running = 0;
    let overlap = false;
    const seenRunning = new Set<string>();
    const handler = probe.handler(async (key) => {
      if (seenRunning.has(key)) overlap = true;
      seenRunning.add(key);
      running++;
      await Promise.resolve();
      running--;
      seenRunning.delete(key);
    });
    const replicaA = await start({ post: handler });
    const replicaB = await start({ post: handler }, second);
    try {
      const keys = Array.from({ length: 100 }, (_, index) => `comment:${index}`);
      const lane = (index: number): string => `o/r#${index % 7}`;
      const stored = await Promise.all(
        keys.flatMap((key, index) => [
          replicaA.enqueue({ task: "post", payload: { key }, key, lane: lane(index) }),
          replicaB.enqueue({ task: "post", payload: { key }, key, lane: lane(index) }),
        ]),
      );
      expect(stored.filter((result) => result.stored)).toHaveLength(100);
      await probe.until(() => probe.totalSuccesses === 100);
      expect([...probe.runs.values()].every((count) => count === 1)).toBe(true);
      expect(probe.runs.size).toBe(100);
      expect(overlap).toBe(false);
      expect(running).toBe(0);
      await replicaA.stop();
      await replicaB.stop();
      const left = await database.pool.query("SELECT count(*)::int AS n FROM graphile_worker.jobs");
      expect(left.rows[0]).toEqual({ n: 0 });
    } finally {
      await replicaB.stop();
      queues.splice(queues.indexOf(replicaB), 1);
      await second.pool.end();
    }
  });
});
