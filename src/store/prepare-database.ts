import { runMigrations } from "graphile-worker";
import type { Logger } from "../logger.js";
import type { Database } from "./database.js";
import { createGraphileLogger } from "./graphile-logger.js";
import { type MigrateResult, migrateDatabase } from "./migrate-database.js";

/** speedgate's schema and the job queue's, both migrated: what the app does once at start, before it accepts a delivery. */
export async function prepareDatabase(database: Database, logger: Logger): Promise<MigrateResult> {
  const result = await migrateDatabase(database.pool, { logger });
  await runMigrations({ pgPool: database.pool, logger: createGraphileLogger(logger), noPreparedStatements: database.kind === "pglite" });
  return result;
}
