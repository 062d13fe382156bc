import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, inject } from "vitest";
import type { Database } from "../../../src/store/database.js";
import { migrateDatabase } from "../../../src/store/migrate-database.js";
import { PGLITE_SUBFOLDER, openDatabase } from "../../../src/store/open-database.js";
import type { DatabaseTarget } from "../../../src/store/parse-database-target.js";
import { silentLogger } from "../../../src/logger.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by the global setup: the server's URL when one answered, else why not. */
    speedgatePostgres: { available: true; url: string } | { available: false; reason: string };
  }
}

/** A database of its own for one test: a fresh PGlite folder, or a fresh database on the server. */
export interface TestDatabaseHandle {
  target: DatabaseTarget;
  open(options?: { maxConnections?: number }): Promise<Database>;
  /** Removes the folder or drops the database; every Database opened on it must be closed first. */
  destroy(): Promise<void>;
}

export interface TestBackend {
  name: "pglite" | "postgres";
  available: boolean;
  create(): Promise<TestDatabaseHandle>;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

const repoRoot = join(import.meta.dirname, "..", "..", "..");

/**
 * An initialised PGlite data folder, made once per machine and PGlite version and copied for each test:
 * PGlite's initdb takes seconds (more under load), reopening a folder a fraction of that.
 */
async function pgliteTemplate(): Promise<string> {
  const { PGlite } = await import("@electric-sql/pglite");
  const manifest = JSON.parse(await readFile(join(repoRoot, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8")) as {
    version: string;
  };
  const version = manifest.version;
  const cache = join(repoRoot, "node_modules", ".cache", "speedgate-test", `pglite-template-${version}`);
  if (await stat(cache).catch(() => null)) return cache;
  const building = await mkdtemp(join(tmpdir(), "speedgate-pglite-template-"));
  const db = await PGlite.create({ dataDir: join(building, PGLITE_SUBFOLDER) });
  await db.close();
  await mkdir(join(cache, ".."), { recursive: true });
  // Two test files may build it at once: the first rename wins and the other's copy is dropped.
  await rename(building, cache).catch(async () => {
    await rm(building, { recursive: true, force: true });
  });
  return cache;
}

const pglite: TestBackend = {
  name: "pglite",
  available: true,
  async create() {
    const dir = await mkdtemp(join(tmpdir(), "speedgate-test-db-"));
    const target: DatabaseTarget = { kind: "pglite", dataDir: join(dir, "data") };
    await cp(await pgliteTemplate(), target.dataDir, { recursive: true });
    return {
      target,
      open: async (options) => await openDatabase(target, { logger: silentLogger, ...options }),
      destroy: async () => {
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

function postgresBackend(): TestBackend {
  const provided = inject("speedgatePostgres");
  return {
    name: "postgres",
    available: provided.available,
    async create() {
      if (!provided.available) throw new Error(`no PostgreSQL server: ${provided.reason}`);
      const name = `speedgate_test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: provided.url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const target: DatabaseTarget = { kind: "postgres", url: withDatabaseName(provided.url, name) };
      return {
        target,
        open: async (options) => await openDatabase(target, { logger: silentLogger, ...options }),
        destroy: async () => {
          const client = new pg.Client({ connectionString: provided.url });
          await client.connect();
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          } finally {
            await client.end();
          }
        },
      };
    },
  };
}

export function testBackends(): TestBackend[] {
  return [pglite, postgresBackend()];
}

/** The same tests on PGlite and on the server; the server's skip with the global setup's notice when none answers. */
export function describeEachBackend(title: string, body: (backend: TestBackend) => void): void {
  for (const backend of testBackends()) {
    describe.skipIf(!backend.available)(`${title} (${backend.name})`, () => {
      body(backend);
    });
  }
}

/**
 * A fresh database for a describe block: made and opened before its tests (migrated to speedgate's
 * newest schema unless `migrate` is false), closed and removed after them.
 */
export function useTestDatabase(
  backend: TestBackend | (() => TestBackend),
  options: { migrate?: boolean } = {},
): { handle: () => TestDatabaseHandle; database: () => Database } {
  let handle: TestDatabaseHandle | null = null;
  let database: Database | null = null;
  beforeAll(async () => {
    handle = await (typeof backend === "function" ? backend() : backend).create();
    database = await handle.open();
    if (options.migrate !== false) await migrateDatabase(database.pool, { logger: silentLogger });
  });
  afterAll(async () => {
    await database?.close();
    await handle?.destroy();
  });
  return {
    handle: () => {
      if (!handle) throw new Error("the test database is made in beforeAll");
      return handle;
    },
    database: () => {
      if (!database) throw new Error("the test database is opened in beforeAll");
      return database;
    },
  };
}

/** The PGlite backend, for tests of the app's side that need a database but not both kinds. */
export function pgliteBackend(): TestBackend {
  const backend = testBackends().find((candidate) => candidate.name === "pglite");
  if (!backend) throw new Error("no PGlite backend");
  return backend;
}
