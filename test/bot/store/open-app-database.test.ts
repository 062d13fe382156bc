import { describe, expect, it } from "vitest";
import { DEFAULT_DATA_DIR, appDatabaseTarget, openAppDatabase } from "../../../bot/store/open-app-database.js";
import { createRecordingLogger } from "../../../src/logger.js";
import { CARD_HISTORY_SCHEMA_VERSION } from "../../../src/store/card-history.js";
import { readSchemaVersion } from "../../../src/store/migrate-database.js";
import { pgliteBackend } from "../../support/database/database-backends.js";

describe("the app's database", () => {
  it("is DATABASE_URL when set, else the PGlite folder SPEEDGATE_DATA_DIR, else .speedgate/app-database", () => {
    expect(appDatabaseTarget({ DATABASE_URL: "postgres://app@db/speedgate", SPEEDGATE_DATA_DIR: "/data" }, "/srv")).toEqual({
      kind: "postgres",
      url: "postgres://app@db/speedgate",
    });
    expect(appDatabaseTarget({ SPEEDGATE_DATA_DIR: "state" }, "/srv")).toEqual({ kind: "pglite", dataDir: "/srv/state" });
    expect(appDatabaseTarget({}, "/srv")).toEqual({ kind: "pglite", dataDir: `/srv/${DEFAULT_DATA_DIR}` });
  });

  it("refuses a DATABASE_URL that is not a PostgreSQL URL, saying what to set instead", () => {
    expect(() => appDatabaseTarget({ DATABASE_URL: "/var/lib/speedgate" })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL; for an embedded database set SPEEDGATE_DATA_DIR/,
    );
  });

  it("is migrated before the app takes a delivery, and says where it is", async () => {
    const handle = await pgliteBackend().create();
    if (handle.target.kind !== "pglite") throw new Error("expected a folder");
    const logger = createRecordingLogger();
    const database = await openAppDatabase({ SPEEDGATE_DATA_DIR: handle.target.dataDir }, logger);
    try {
      expect(await readSchemaVersion(database.pool)).toBeGreaterThanOrEqual(CARD_HISTORY_SCHEMA_VERSION);
      const queue = await database.pool.query("SELECT to_regproc('graphile_worker.add_job') IS NOT NULL AS ready");
      expect(queue.rows[0]).toEqual({ ready: true });
      expect(
        logger.lines.some(
          (line) =>
            line.level === "info" &&
            line.message.startsWith(`database: PGlite in ${handle.target.kind === "pglite" ? handle.target.dataDir : ""}, schema version`),
        ),
      ).toBe(true);
    } finally {
      await database.close();
      await handle.destroy();
    }
  });
});
