import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logger.js";
import { DataFolderInUseError, LOCK_FILE } from "../../src/store/lock-data-folder.js";
import { SOCKET_RECORD, openDatabase } from "../../src/store/open-database.js";
import { parseDatabaseTarget, redactDatabaseUrl } from "../../src/store/parse-database-target.js";
import { testBackends } from "../support/database/database-backends.js";
import { makeTempDir } from "../support/make-temp-dir.js";

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

  it("after a process SIGKILLed holding it, removes the socket folder it left; a deep TMPDIR still gives a socket that fits", async () => {
    if (!pglite) throw new Error("no PGlite backend");
    const handle = await pglite.create();
    if (handle.target.kind !== "pglite") throw new Error("expected a folder");
    const dataDir = handle.target.dataDir;
    // A temporary folder so deep that a socket inside it would pass the 107 bytes a socket path may have.
    const deep = join(await makeTempDir("speedgate-socket-"), "a-temporary-folder-deep-enough-that-a-socket-path-inside-it-is-cut");
    await mkdir(deep, { recursive: true });
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/database/run-queue-process.ts"], {
      cwd: fileURLToPath(new URL("../../", import.meta.url)),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: deep, SPEEDGATE_TEST_QUEUE_DATABASE: dataDir },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      let output = "";
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("ready\n")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`the opener exited (${code}) before it was ready`)));
      });
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    }
    const left = (await readFile(join(dataDir, SOCKET_RECORD), "utf8")).trim();
    expect(Buffer.byteLength(join(left, ".s.PGSQL.5432"))).toBeLessThanOrEqual(107);
    expect(await stat(left).catch(() => null)).not.toBeNull();
    const database = await openDatabase({ kind: "pglite", dataDir }, { logger: silentLogger });
    try {
      expect(await stat(left).catch(() => null)).toBeNull();
      expect((await readFile(join(dataDir, SOCKET_RECORD), "utf8")).trim()).not.toBe(left);
    } finally {
      await database.close();
      await handle.destroy();
    }
  });
});
