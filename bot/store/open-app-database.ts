import { resolve } from "node:path";
import type { Logger } from "../../src/logger.js";
import type { Database } from "../../src/store/database.js";
import { openDatabase } from "../../src/store/open-database.js";
import { type DatabaseTarget, parseDatabaseTarget } from "../../src/store/parse-database-target.js";
import { prepareDatabase } from "../../src/store/prepare-database.js";
import { DEFAULT_CONCURRENCY } from "../../src/store/work-queue.js";

/** Where `npm run bot` keeps its embedded database when no DATABASE_URL is given. */
export const DEFAULT_DATA_DIR = ".speedgate/app-database";

/**
 * DATABASE_URL (a PostgreSQL server: several replicas may share it) or else SPEEDGATE_DATA_DIR, an
 * embedded PGlite folder (one process; default .speedgate/app-database under the working directory).
 */
export function appDatabaseTarget(env: NodeJS.ProcessEnv, cwd = process.cwd()): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) {
    const target = parseDatabaseTarget(url, cwd);
    if (target.kind !== "postgres")
      throw new Error(
        "DATABASE_URL must be a postgres:// or postgresql:// URL; for an embedded database set SPEEDGATE_DATA_DIR to a folder",
      );
    return target;
  }
  return { kind: "pglite", dataDir: resolve(cwd, env.SPEEDGATE_DATA_DIR?.trim() || DEFAULT_DATA_DIR) };
}

/** Opens the app's database and migrates it (speedgate's schema and the job queue's) before any delivery is accepted. */
export async function openAppDatabase(env: NodeJS.ProcessEnv, logger: Logger, concurrency = DEFAULT_CONCURRENCY): Promise<Database> {
  const database = await openDatabase(appDatabaseTarget(env), {
    logger,
    maxConnections: concurrency + 4,
    applicationName: "speedgate app",
  });
  try {
    const migrated = await prepareDatabase(database, logger);
    logger.info(`database: ${database.description}, schema version ${migrated.to}`);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
