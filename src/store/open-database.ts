import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { Logger } from "../logger.js";
import type { Database } from "./database.js";
import { lockDataFolder } from "./lock-data-folder.js";
import { type DatabaseTarget, redactDatabaseUrl } from "./parse-database-target.js";

export interface OpenDatabaseOptions {
  logger: Logger;
  /** Connections in the pool; the job queue needs its concurrency plus two. */
  maxConnections?: number;
  /** The pool's name in the server's pg_stat_activity. */
  applicationName?: string;
  /** False for a reader (`speedgate history`): a PGlite folder that holds no database is an error, not a new database. */
  create?: boolean;
}

/** PGlite keeps its own files in this subfolder, beside the lock. */
export const PGLITE_SUBFOLDER = "pgdata";
/** libpq's socket file name for port 5432 inside the socket directory. */
const SOCKET_PORT = 5432;
/** Beside the lock: the socket folder of the process that holds the data folder. */
export const SOCKET_RECORD = "speedgate.socket";
/** The longest path a unix socket may have on Linux (sun_path, less its terminating zero). */
const SOCKET_PATH_MAX = 107;

/**
 * Where PGlite's socket folder is made: the temporary folder, unless a socket inside it would be longer than a socket
 * path may be. Node cuts such a path short, so every start would bind the same cut path, and a start after a killed
 * process (which left its socket behind) would fail with EADDRINUSE; /tmp then.
 */
export function socketParent(temporary = tmpdir()): string {
  const probe = join(temporary, "speedgate-pglite-XXXXXX", `.s.PGSQL.${SOCKET_PORT}`);
  return Buffer.byteLength(probe) <= SOCKET_PATH_MAX ? temporary : "/tmp";
}

/** Opens the server or the embedded PGlite and checks that it answers. */
export async function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions): Promise<Database> {
  if (target.kind === "postgres") return await openServer(target.url, options);
  return await openPglite(target.dataDir, options);
}

/** A pool whose connection failures are logged, never thrown at the process. */
export function createPool(config: pg.PoolConfig, logger: Logger, description: string): pg.Pool {
  const pool = new pg.Pool(config);
  attachPoolErrorLog(pool, logger, description);
  return pool;
}

function attachPoolErrorLog(pool: pg.Pool, logger: Logger, description: string): void {
  // A connection dropped by the server (restart, failover) must not crash the process: an idle one is
  // replaced on the next checkout, a checked-out one fails its query, which its caller retries.
  pool.on("error", (error) => {
    logger.warn(`database ${description}: an idle connection failed: ${error.message}`);
  });
  pool.on("connect", (client) => {
    client.on("error", (error) => {
      logger.warn(`database ${description}: a connection failed: ${error.message}`);
    });
  });
}

async function checkAnswers(pool: pg.Pool, description: string): Promise<void> {
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new Error(`the database ${description} does not answer: ${(error as Error).message}`, { cause: error });
  }
}

async function openServer(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const description = redactDatabaseUrl(url);
  const connection: pg.PoolConfig = {
    connectionString: url,
    application_name: options.applicationName ?? "speedgate",
    // Under Probot's 9 s answer timeout: a delivery whose job cannot be stored must be answered 5xx, not 202.
    connectionTimeoutMillis: 5_000,
    // A half-open TCP connection (a failover, a cut network) is found by the kernel, not after hours.
    keepAlive: true,
  };
  const pool = createPool({ ...connection, max: options.maxConnections ?? 10 }, options.logger, description);
  await checkAnswers(pool, description);
  return {
    kind: "postgres",
    description,
    pool,
    connection,
    close: async () => {
      await pool.end();
    },
  };
}

async function openPglite(dataDir: string, options: OpenDatabaseOptions): Promise<Database> {
  if (options.create === false && !(await stat(join(dataDir, PGLITE_SUBFOLDER)).catch(() => null))) {
    throw new Error(
      `no speedgate database in ${dataDir}: the folder holds no PGlite data (${PGLITE_SUBFOLDER}/); give the folder the app was ` +
        `started with`,
    );
  }
  await mkdir(dataDir, { recursive: true });
  const unlock = await lockDataFolder(dataDir);
  const cleanups: Array<() => Promise<void>> = [unlock];
  const cleanUp = async (): Promise<void> => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    // Loaded here, not at the top: the CLI's other commands and a PostgreSQL deployment never pay for the WASM.
    const { PGlite } = await import("@electric-sql/pglite");
    const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
    const db = await PGlite.create({ dataDir: join(dataDir, PGLITE_SUBFOLDER) });
    cleanups.push(async () => {
      await db.close();
    });
    // A unix socket in a folder only this user can enter: PGlite's server has no passwords.
    // The folder holds the lock, so a socket folder recorded by an earlier owner is a dead process's (a SIGKILL skips
    // the cleanup below): removed, as long as it is one of ours.
    const recorded = (await readFile(join(dataDir, SOCKET_RECORD), "utf8").catch(() => "")).trim();
    if (/[\\/]speedgate-pglite-[^\\/]+$/.test(recorded)) await rm(recorded, { recursive: true, force: true });
    const socketDir = await mkdtemp(join(socketParent(), "speedgate-pglite-"));
    await writeFile(join(dataDir, SOCKET_RECORD), `${socketDir}\n`, { mode: 0o600 });
    cleanups.push(async () => {
      await rm(socketDir, { recursive: true, force: true });
      await rm(join(dataDir, SOCKET_RECORD), { force: true });
    });
    const maxConnections = options.maxConnections ?? 10;
    // The server multiplexes its connections onto PGlite's one session, so they are cheap; room for
    // more than this pool lets a tool (or a test's second pool) connect beside the app.
    const server = new PGLiteSocketServer({
      db,
      path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
      maxConnections: Math.max(64, maxConnections * 4),
    });
    await server.start();
    cleanups.push(async () => {
      await server.stop();
    });
    const connection: pg.PoolConfig = {
      host: socketDir,
      port: SOCKET_PORT,
      user: "postgres",
      database: "postgres",
      application_name: options.applicationName ?? "speedgate",
    };
    const description = `PGlite in ${dataDir}`;
    const pool = createPool({ ...connection, max: maxConnections }, options.logger, description);
    cleanups.push(async () => {
      await pool.end();
    });
    await checkAnswers(pool, description);
    return {
      kind: "pglite",
      description,
      pool,
      connection,
      close: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
