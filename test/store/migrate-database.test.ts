import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRecordingLogger, silentLogger } from "../../src/logger.js";
import type { Database } from "../../src/store/database.js";
import { SchemaVersionError, loadMigrations, migrateDatabase, readSchemaVersion } from "../../src/store/migrate-database.js";
import { prepareDatabase } from "../../src/store/prepare-database.js";
import { type TestDatabaseHandle, describeEachBackend, useTestDatabase } from "../support/database/database-backends.js";

async function tables(database: Database): Promise<string[]> {
  const { rows } = await database.pool.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'speedgate' ORDER BY table_name",
  );
  return rows.map((row) => row.name);
}

async function columns(database: Database, table: string): Promise<string[]> {
  const { rows } = await database.pool.query<{ name: string }>(
    "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'speedgate' AND table_name = $1 ORDER BY column_name",
    [table],
  );
  return rows.map((row) => row.name);
}

describe("loadMigrations", () => {
  it("reads the repository's numbered files in order, starting at 1 with no gaps", async () => {
    const migrations = await loadMigrations();
    expect(migrations.length).toBeGreaterThanOrEqual(2);
    expect(migrations.map((migration) => migration.version)).toEqual(migrations.map((_, index) => index + 1));
  });

  it("refuses a gap in the numbers and a file not named NNNN-name.sql", async () => {
    const dir = await mkdtemp(join(tmpdir(), "speedgate-migrations-"));
    try {
      await writeFile(join(dir, "0001-first.sql"), "SELECT 1;");
      await writeFile(join(dir, "0003-third.sql"), "SELECT 1;");
      await expect(loadMigrations(dir)).rejects.toThrow(/0003-third\.sql.*expected version 2/);
      await rm(join(dir, "0003-third.sql"));
      await writeFile(join(dir, "2-second.sql"), "SELECT 1;");
      await expect(loadMigrations(dir)).rejects.toThrow(/2-second\.sql.*NNNN-name\.sql/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describeEachBackend("migrateDatabase", (backend) => {
  let handle: TestDatabaseHandle;
  let database: Database | null = null;

  beforeAll(async () => {
    handle = await backend.create();
  });
  afterEach(async () => {
    await database?.close();
    database = null;
  });
  afterAll(async () => {
    await handle.destroy();
  });

  it("migrates an empty database to the newest version, and a second start applies nothing", async () => {
    database = await handle.open();
    const newest = (await loadMigrations()).length;
    expect(await readSchemaVersion(database.pool)).toBe(0);
    const logger = createRecordingLogger();
    const first = await migrateDatabase(database.pool, { logger });
    expect(first).toEqual({ from: 0, to: newest, applied: Array.from({ length: newest }, (_, index) => index + 1) });
    expect(logger.lines).toContainEqual({ level: "info", message: `database schema migrated from version 0 to ${newest}` });
    expect(await tables(database)).toEqual(
      expect.arrayContaining([
        "cards",
        "leaderboards",
        "pull_requests",
        "redeliveries",
        "schema_migrations",
        "side_effects",
        "work_receipts",
        "worker_heartbeats",
      ]),
    );
    const second = await migrateDatabase(database.pool, { logger: silentLogger });
    expect(second).toEqual({ from: newest, to: newest, applied: [] });
  });
});

describeEachBackend("migrating from the previous schema", (backend) => {
  let handle: TestDatabaseHandle;
  let database: Database | null = null;

  beforeAll(async () => {
    handle = await backend.create();
  });
  afterAll(async () => {
    await database?.close();
    await handle.destroy();
  });

  it("keeps the rows written under version N-1 and adds version N's tables and columns", async () => {
    const migrations = await loadMigrations();
    const previous = migrations.length - 1;
    database = await handle.open();
    await migrateDatabase(database.pool, { logger: silentLogger, targetVersion: previous });
    expect(await readSchemaVersion(database.pool)).toBe(previous);
    // What the previous version holds: accepted work, a dispatch's record, a card, a redelivery asked for and a leaderboard issue.
    await database.pool.query("INSERT INTO speedgate.work_receipts (job_key, task, lane) VALUES ('comment:1', 'rescore', 'o/r#1')");
    await database.pool.query(
      "INSERT INTO speedgate.side_effects (effect_key, kind, state, sends) VALUES ('dispatch:comment:1', 'dispatch', 'done', 1)",
    );
    await database.pool.query(
      "INSERT INTO speedgate.cards (repository, pull_request, head_sha, run_id, gate_passed, gate_min_round_score, gate_use) VALUES " +
        "('o/r', 1, 'abc', 7, true, 1.05, 'round-score')",
    );
    await database.pool.query("INSERT INTO speedgate.redeliveries (guid, delivery_id, event) VALUES ('guid-1', 11, 'issue_comment')");
    await database.pool.query("INSERT INTO speedgate.leaderboards (repository, issue_number) VALUES ('o/r', 5)");
    await database.pool.query(
      "INSERT INTO speedgate.main_rounds (repository, kind, base_sha, head_sha, run_id, run_attempt) " +
        "VALUES ('o/r', 'drift', 'a', 'b', 8, 1)",
    );
    expect(await columns(database, "card_documents")).toEqual([]);
    await database.close();

    // The newer speedgate starts on the same data.
    database = await handle.open();
    const result = await prepareDatabase(database, silentLogger);
    expect(result).toEqual({ from: previous, to: migrations.length, applied: [migrations.length] });
    const receipts = await database.pool.query("SELECT job_key, task, lane FROM speedgate.work_receipts");
    expect(receipts.rows).toEqual([{ job_key: "comment:1", task: "rescore", lane: "o/r#1" }]);
    const effects = await database.pool.query("SELECT effect_key, state FROM speedgate.side_effects");
    expect(effects.rows).toEqual([{ effect_key: "dispatch:comment:1", state: "done" }]);
    expect((await database.pool.query("SELECT count(*)::int AS n FROM speedgate.cards")).rows[0]).toEqual({ n: 1 });
    expect((await database.pool.query("SELECT guid, first_delivered_at FROM speedgate.redeliveries")).rows).toEqual([
      { guid: "guid-1", first_delivered_at: null },
    ]);
    expect((await database.pool.query("SELECT issue_number, pinned FROM speedgate.leaderboards")).rows).toEqual([
      { issue_number: 5, pinned: false },
    ]);
    expect((await database.pool.query("SELECT run_id, scenarios_total, scenarios_passed FROM speedgate.cards")).rows).toEqual([
      { run_id: "7", scenarios_total: null, scenarios_passed: null },
    ]);
    expect((await database.pool.query("SELECT run_id, head_sha FROM speedgate.main_rounds")).rows).toEqual([
      { run_id: "8", head_sha: "b" },
    ]);
    // Version N's table: each round's whole card (the card pages, #42), empty, with the runner page's calibration columns.
    expect(await columns(database, "card_documents")).toEqual(expect.arrayContaining(["card", "calibration_measured_at", "noise_floor"]));
    expect((await database.pool.query("SELECT count(*)::int AS n FROM speedgate.card_documents")).rows[0]).toEqual({ n: 0 });
  });
});

describeEachBackend("refusing a schema it does not know", (backend) => {
  const test = useTestDatabase(backend);
  let database: Database;

  beforeEach(() => {
    database = test.database();
  });

  it("refuses a database a newer speedgate migrated, and leaves it as it was", async () => {
    const newest = (await loadMigrations()).length;
    await database.pool.query("INSERT INTO speedgate.schema_migrations (version, name, checksum) VALUES ($1, 'from-the-future', 'x')", [
      newest + 1,
    ]);
    const attempt = migrateDatabase(database.pool, { logger: silentLogger });
    await expect(attempt).rejects.toBeInstanceOf(SchemaVersionError);
    await expect(attempt).rejects.toThrow(`the database's schema is at version ${newest + 1}, newer than this speedgate knows (${newest})`);
    expect(await readSchemaVersion(database.pool)).toBe(newest + 1);
    await database.pool.query("DELETE FROM speedgate.schema_migrations WHERE version = $1", [newest + 1]);
  });

  it("refuses a migration edited after it was applied", async () => {
    const migrations = await loadMigrations();
    const edited = migrations.map((migration) => (migration.version === 1 ? { ...migration, checksum: "0".repeat(64) } : migration));
    await expect(migrateDatabase(database.pool, { logger: silentLogger, migrations: edited })).rejects.toThrow(
      /migration 0001-durable-work was changed after it was applied/,
    );
  });
});

describeEachBackend("replicas starting together", (backend) => {
  let handle: TestDatabaseHandle;

  beforeAll(async () => {
    handle = await backend.create();
  });
  afterAll(async () => {
    await handle.destroy();
  });

  it("apply each migration once when two migrate at the same moment", async () => {
    const first = await handle.open();
    // Two pools: two replicas (on PGlite, two pools on the one process's server).
    const second = { ...first, pool: new (await import("pg")).default.Pool({ ...first.connection, max: 2 }) };
    try {
      const results = await Promise.all([
        migrateDatabase(first.pool, { logger: silentLogger }),
        migrateDatabase(second.pool, { logger: silentLogger }),
      ]);
      const newest = (await loadMigrations()).length;
      expect(results.flatMap((result) => result.applied).sort()).toEqual(Array.from({ length: newest }, (_, index) => index + 1));
      const { rows } = await first.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM speedgate.schema_migrations");
      expect(rows[0]?.n).toBe(newest);
    } finally {
      await second.pool.end();
      await first.close();
    }
  });
});
