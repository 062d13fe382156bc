import { createHash } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import type { Logger } from "../logger.js";
import type { Queryable } from "./database.js";
import { withTransaction } from "./with-transaction.js";

/*
 * The schema is versioned by numbered SQL files in src/store/migrations/ (NNNN-what.sql), applied in
 * order at start, each once, in one transaction with the record of it. Replicas starting together
 * take turns on an advisory lock; a database migrated by a newer speedgate is refused rather than used.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
const FILE_PATTERN = /^(\d{4})-([a-z0-9-]+)\.sql$/;
/** pg_advisory_xact_lock's key for migrations: any constant other code does not use. */
export const MIGRATION_LOCK = 0x5bd9a7e;

export class SchemaVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SchemaVersionError";
  }
}

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith(".sql")).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_PATTERN.exec(file);
    if (!match?.[1] || !match[2]) throw new Error(`migration file ${file} in ${dir} is not named NNNN-name.sql`);
    const version = Number(match[1]);
    const expected = migrations.length + 1;
    if (version !== expected)
      throw new Error(`migration ${file} in ${dir}: expected version ${expected} next (numbers start at 1 with no gaps)`);
    const sql = await readFile(`${dir}/${file}`, "utf8");
    migrations.push({ version, name: match[2], sql, checksum: createHash("sha256").update(sql).digest("hex") });
  }
  return migrations;
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

async function tableExists(queryable: Queryable): Promise<boolean> {
  const { rows } = await queryable.query<{ exists: boolean }>("SELECT to_regclass('speedgate.schema_migrations') IS NOT NULL AS exists");
  return rows[0]?.exists === true;
}

/** The highest version applied, 0 on a database speedgate never touched. */
export async function readSchemaVersion(queryable: Queryable): Promise<number> {
  if (!(await tableExists(queryable))) return 0;
  const { rows } = await queryable.query<{ version: number | null }>("SELECT max(version) AS version FROM speedgate.schema_migrations");
  return rows[0]?.version ?? 0;
}

export interface MigrateOptions {
  logger: Logger;
  /** Stop at this version (tests build the previous schema this way); default: the newest. */
  targetVersion?: number;
  migrations?: Migration[];
}

export interface MigrateResult {
  from: number;
  to: number;
  applied: number[];
}

export async function migrateDatabase(pool: pg.Pool, options: MigrateOptions): Promise<MigrateResult> {
  const migrations = options.migrations ?? (await loadMigrations());
  const newest = migrations.at(-1)?.version ?? 0;
  const target = options.targetVersion ?? newest;
  if (target > newest) throw new SchemaVersionError(`no migration reaches version ${target}: the newest is ${newest}`);
  return await withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE SCHEMA IF NOT EXISTS speedgate");
    await client.query(
      `CREATE TABLE IF NOT EXISTS speedgate.schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         checksum text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<AppliedRow>("SELECT version, name, checksum FROM speedgate.schema_migrations ORDER BY version");
    const from = rows.at(-1)?.version ?? 0;
    if (from > newest) {
      throw new SchemaVersionError(
        `the database's schema is at version ${from}, newer than this speedgate knows (${newest}): ` +
          "a newer speedgate migrated it; run that version, or restore a backup taken before it",
      );
    }
    for (const row of rows) {
      const known = migrations[row.version - 1];
      if (known && known.checksum !== row.checksum) {
        throw new SchemaVersionError(
          `migration ${String(row.version).padStart(4, "0")}-${row.name} was changed after it was applied to this database; ` +
            "applied migrations are never edited: add a new one instead",
        );
      }
    }
    const applied: number[] = [];
    for (const migration of migrations.filter((candidate) => candidate.version > from && candidate.version <= target)) {
      await client.query(migration.sql);
      await client.query("INSERT INTO speedgate.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      applied.push(migration.version);
    }
    const to = Math.max(from, applied.at(-1) ?? from);
    if (applied.length > 0) options.logger.info(`database schema migrated from version ${from} to ${to}`);
    return { from, to, applied };
  });
}
