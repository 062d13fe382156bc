import { connect } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATION_LOCK } from "../../src/store/migrate-database.js";
import { type TestDatabaseHandle, testBackends } from "../support/database/database-backends.js";
import { FakeGitHub } from "../support/fake-github/fake-github-server.js";
import { sendWebhook } from "../support/fake-github/send-webhook.js";
import { startBotProcess } from "../support/fake-github/start-bot-process.js";

/*
 * Issue #23: the app with its embedded database took ~45 s to answer /ping under load, because it
 * opened and migrated the database before listening; and `kill` of `npm run bot` left the server
 * running under a new parent. Now the server listens first, GET /ready says "starting" with 503 until
 * the database is open and migrated (a delivery meanwhile gets 503, unread), one log line says when it
 * is ready, and SIGTERM to the started process reaches the app.
 */

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: await response.text() };
}

/** Resolves true when a TCP connection to the port is refused: nothing listens there any more. */
async function refused(port: number): Promise<boolean> {
  return await new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

describe("the app's readiness and its stop", () => {
  const fake = new FakeGitHub();
  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  it("answers /ready 200 once ready, logs it, and stops on SIGTERM to the process `npm run bot` started", async () => {
    const bot = await startBotProcess({ gheHost: fake.host });
    const ready = await bot.waitFor(/ready: PGlite in \S+ open and migrated [\d.]+ s after start; taking deliveries/);
    expect(ready[0]).toBeTruthy();
    expect(await get(bot.port, "/ready")).toEqual({ status: 200, body: '{"status":"ready"}\n' });
    expect((await get(bot.port, "/ping")).status).toBe(200);
    // Only npm's own pid, not its process group: before `exec node`, npm's shell died and the app ran on.
    await bot.stop();
    expect(bot.output()).toMatch(/SIGTERM: stopping/);
    expect(await refused(bot.port)).toBe(true);
  });

  const postgres = testBackends().find((backend) => backend.name === "postgres");
  describe.skipIf(!postgres?.available)("while the database is still being migrated (PostgreSQL: the test holds the migration lock)", () => {
    let handle: TestDatabaseHandle;
    let holder: pg.Client;
    beforeAll(async () => {
      handle = await (postgres as NonNullable<typeof postgres>).create();
      holder = new pg.Client({ connectionString: handle.target.kind === "postgres" ? handle.target.url : "" });
      await holder.connect();
      // The app migrates under this lock (several replicas take turns): held here, it waits as behind a slow start.
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    });
    afterAll(async () => {
      await holder.end().catch(() => undefined);
      await handle.destroy();
    });

    it("answers /ping at once, /ready and deliveries 503 'starting', then 200 once migrated", async () => {
      const url = handle.target.kind === "postgres" ? handle.target.url : "";
      const bot = await startBotProcess({ gheHost: fake.host, env: { DATABASE_URL: url }, until: "listening" });
      try {
        expect((await get(bot.port, "/ping")).status).toBe(200);
        expect(await get(bot.port, "/ready")).toEqual({ status: 503, body: '{"status":"starting"}\n' });
        const early = await sendWebhook(bot.webhookUrl, { event: "ping", payload: { zen: "early" }, secret: bot.secret });
        expect(early).toBe(503);
        expect(bot.output()).not.toContain("taking deliveries");

        await holder.query("COMMIT");
        await bot.waitFor(/taking deliveries/);
        expect(await get(bot.port, "/ready")).toEqual({ status: 200, body: '{"status":"ready"}\n' });
        expect(await sendWebhook(bot.webhookUrl, { event: "ping", payload: { zen: "late" }, secret: bot.secret })).toBe(200);
      } finally {
        await bot.stop();
      }
    });
  });
});
