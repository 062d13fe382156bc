import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { DataFolderInUseError, LOCK_FILE } from "../../src/store/lock-data-folder.js";
import { openDatabase } from "../../src/store/open-database.js";
import { parseDatabaseTarget, redactDatabaseUrl } from "../../src/store/parse-database-target.js";
import { testBackends } from "../support/database/database-backends.js";

describe("parseDatabaseTarget", () => {
  it("takes a postgres:// or postgresql:// URL as a server and anything else as a PGlite folder", () => {
    expect(parseDatabaseTarget("postgres://u:p@db:5432/speedgate")).toEqual({ kind: "postgres", url: "postgres://u:p@db:5432/speedgate" });
    expect(parseDatabaseTarget("POSTGRESQL://db/x")).toEqual({ kind: "postgres", url: "POSTGRESQL://db/x" });
    expect(parseDatabaseTarget("data/db", "/srv")).toEqual({ kind: "pglite", dataDir: "/srv/data/db" });
    expect(parseDatabaseTarget("/var/lib/speedgate")).toEqual({ kind: "pglite", dataDir: "/var/lib/speedgate" });
  });

  it("refuses another scheme and an empty value, never echoing a password", () => {
    expect(() => parseDatabaseTarget("mysql://root:hunter2@db/x")).toThrow("unsupported database URL scheme in mysql://root:***@db/x");
    expect(() => parseDatabaseTarget("  ")).toThrow(/the database is empty/);
    expect(redactDatabaseUrl("postgres://u:hunter2@db/x")).toBe("postgres://u:***@db/x");
  });
});

describe("a PGlite data folder", () => {
  const pglite = testBackends().find((backend) => backend.name === "pglite");

  it("is refused to a second opener while the first holds it, and free again once closed", async () => {
    if (!pglite) throw new Error("no PGlite backend");
    const handle = await pglite.create();
    const first = await handle.open();
    try {
      await expect(handle.open()).rejects.toBeInstanceOf(DataFolderInUseError);
      await expect(handle.open()).rejects.toThrow(/is in use by process \d+@.*PGlite serves one process at a time.*DATABASE_URL/);
    } finally {
      await first.close();
    }
    const again = await handle.open();
    await again.close();
    await handle.destroy();
  });

  it("is taken over from a process that died holding it", async () => {
    if (!pglite) throw new Error("no PGlite backend");
    const handle = await pglite.create();
    if (handle.target.kind !== "pglite") throw new Error("expected a folder");
    const dataDir = handle.target.dataDir;
    const child = spawn(process.execPath, ["-e", ""]);
    await once(child, "exit");
    await writeFile(join(dataDir, LOCK_FILE), `${child.pid ?? 999_999}@${hostname()}\n`);
    const database = await openDatabase({ kind: "pglite", dataDir }, { logger: silentLogger });
    try {
      expect((await readFile(join(dataDir, LOCK_FILE), "utf8")).trim()).toBe(`${process.pid}@${hostname()}`);
    } finally {
      await database.close();
      await handle.destroy();
    }
  });
});
