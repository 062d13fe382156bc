import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingLogger, silentLogger } from "../../src/logger.js";
import type { Database } from "../../src/store/database.js";
import { createPool } from "../../src/store/open-database.js";
import { prepareDatabase } from "../../src/store/prepare-database.js";
import { type WorkQueue, startWorkQueue } from "../../src/store/work-queue.js";
import { type TestDatabaseHandle, describeEachBackend, testBackends } from "../support/database/database-backends.js";
import { QueueProbe, deferred } from "../support/database/queue-probe.js";
import { ForwardingProxy, type SocketAddress } from "../support/forwarding-proxy.js";

const FAST = { pollIntervalMs: 100, liveness: { intervalMs: 200, staleAfterMs: 60_000 } };

/** The server (or PGlite's socket) behind a database's pool. */
function serverAddress(database: Database): SocketAddress {
  const connection = database.connection;
  if (connection.connectionString) {
    const url = new URL(connection.connectionString);
    return { host: url.hostname, port: Number(url.port || "5432") };
  }
  return { path: `${String(connection.host)}/.s.PGSQL.${String(connection.port)}` };
}

/** How a pool reaches the same database through a proxy on loopback. */
function throughProxy(database: Database, proxyPort: number): pg.PoolConfig {
  const connection = database.connection;
  if (connection.connectionString) {
    const url = new URL(connection.connectionString);
    url.hostname = "127.0.0.1";
    url.port = String(proxyPort);
    return { ...connection, connectionString: url.toString() };
  }
  return { ...connection, host: "127.0.0.1", port: proxyPort };
}

describeEachBackend("the work queue when the database goes away", (backend) => {
  let handle: TestDatabaseHandle;
  let database: Database;

  beforeEach(async () => {
    handle = await backend.create();
    database = await handle.open();
    await prepareDatabase(database, silentLogger);
  });
  afterEach(async () => {
    await database.close();
    await handle.destroy();
  });

  it("refuses work while it is away, and after it is back runs everything stored, once", async () => {
    const forwarding = new ForwardingProxy(serverAddress(database));
    await forwarding.start();
    const config = throughProxy(database, forwarding.port);
    const logger = createRecordingLogger();
    const pool = createPool({ ...config, max: 8, connectionTimeoutMillis: 2_000 }, logger, "through the proxy");
    const proxied: Database = { ...database, connection: config, pool, close: () => pool.end() };
    const probe = new QueueProbe();
    const started = deferred();
    const release = deferred();
    let queue: WorkQueue | null = null;
    try {
      queue = await startWorkQueue({
        database: proxied,
        logger,
        ...FAST,
        handlers: {
          post: probe.handler(async (key) => {
            if (key !== "during") return;
            started.resolve();
            await release.promise;
          }),
        },
      });
      await queue.enqueue({ task: "post", payload: { key: "during" }, key: "during", lane: "o/r#1" });
      await started.promise;

      await forwarding.cut();
      // The running job ends while the database is away: recording that must wait for it, not be dropped.
      release.resolve();
      // A delivery arriving now is refused (the app answers 5xx and GitHub keeps it as failed).
      await expect(queue.enqueue({ task: "post", payload: { key: "refused" }, key: "refused", lane: "o/r#1" })).rejects.toThrow();

      await forwarding.start();
      const after = Array.from({ length: 10 }, (_, index) => `after-${index}`);
      for (const [index, key] of after.entries()) {
        expect(await queue.enqueue({ task: "post", payload: { key }, key, lane: `o/r#${index % 3}` })).toEqual({ stored: true });
      }
      await probe.until(() => after.every((key) => probe.successes.has(key)));
      await queue.stop();
      queue = null;
      expect(after.filter((key) => probe.runs.get(key) !== 1)).toEqual([]);
      // A job whose end could not be recorded runs again once the database is back (at least once:
      // handlers are idempotent, and a dispatch is guarded by its side-effect record).
      expect(probe.successes.get("during")).toBeGreaterThanOrEqual(1);
      expect(probe.runs.has("refused")).toBe(false);
      const left = await database.pool.query("SELECT count(*)::int AS n FROM graphile_worker.jobs");
      expect(left.rows[0]).toEqual({ n: 0 });
      const receipts = await database.pool.query("SELECT 1 FROM speedgate.work_receipts WHERE job_key = 'refused'");
      expect(receipts.rowCount).toBe(0);
      expect(logger.lines.some((line) => line.level === "warn" && line.message.includes("through the proxy"))).toBe(true);
    } finally {
      await queue?.stop();
      await forwarding.stop();
      await pool.end();
    }
  });
});

const server = testBackends().find((backend) => backend.name === "postgres");
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe.skipIf(!server?.available)("a replica killed in the middle of a job (postgres)", () => {
  let handle: TestDatabaseHandle;
  let database: Database;
  let child: ChildProcess | null = null;

  beforeEach(async () => {
    if (!server) throw new Error("no server backend");
    handle = await server.create();
    database = await handle.open();
    await prepareDatabase(database, silentLogger);
  });
  afterEach(async () => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    }
    await database.close();
    await handle.destroy();
  });

  it("hands its job to another replica at once, its session's end the proof, and the pull request's lane moves on", async () => {
    if (handle.target.kind !== "postgres") throw new Error("expected a server");
    child = spawn(process.execPath, ["--import", "tsx", "test/support/database/run-queue-process.ts"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, SPEEDGATE_TEST_QUEUE_DATABASE: handle.target.url },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const seen = (text: string): Promise<void> =>
      new Promise((resolve, reject) => {
        const check = (chunk?: Buffer): void => {
          if (chunk) output += chunk.toString("utf8");
          if (output.includes(text)) resolve();
        };
        child?.stdout?.on("data", check);
        child?.stderr?.on("data", check);
        child?.once("exit", (code, signal) => reject(new Error(`the replica exited (${code ?? signal}):\n${output}`)));
        check();
      });
    await seen("ready\n");
    const store = await startWorkQueue({ database, logger: silentLogger, handlers: {}, ...FAST });
    await store.enqueue({ task: "post", payload: { key: "card" }, key: "card", lane: "o/r#9" });
    await store.enqueue({ task: "post", payload: { key: "next" }, key: "next", lane: "o/r#9" });
    await store.stop();
    await seen("started card\n");
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;

    const locked = await database.pool.query<{ key: string }>("SELECT key FROM graphile_worker.jobs WHERE locked_by IS NOT NULL");
    expect(locked.rows).toEqual([{ key: "card" }]);
    const probe = new QueueProbe();
    const attempts: number[] = [];
    const logger = createRecordingLogger();
    const survivor = await startWorkQueue({
      database,
      logger,
      pollIntervalMs: 100,
      // A stale wait no test outlives: only the proof (the killed replica's advisory lock is gone) can release the job.
      liveness: { intervalMs: 100, staleAfterMs: 3_600_000 },
      handlers: {
        post: probe.handler((key, context) => {
          if (key === "card") attempts.push(context.attempt);
          return Promise.resolve();
        }),
      },
    });
    try {
      await probe.until(() => probe.totalSuccesses === 2);
    } finally {
      await survivor.stop();
    }
    expect(probe.order).toEqual(["card", "next"]);
    // The killed replica's run counted as the first attempt.
    expect(attempts).toEqual([2]);
    expect(
      logger.lines.some(
        (line) => line.level === "warn" && /released the jobs of 1 worker pool\(s\) that lost their database session/.test(line.message),
      ),
    ).toBe(true);
  });
});
