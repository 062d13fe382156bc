import { connect } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATION_LOCK } from "../../src/store/migrate-database.js";
import { type TestDatabaseHandle, testBackends } from "../support/database/database-backends.js";
import { sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { startBotProcess } from "../support/fake-github/start-bot-process.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

/*
 * The app with its embedded database took ~45 s to answer /ping under load, because it opened and
 * migrated the database before listening; and `kill` of `npm run bot` left the server running under a
 * new parent. Now the server listens first, GET /ready says "starting" with 503 until the database is
 * open and migrated, one log line says when it is ready, and SIGTERM to the started process reaches
 * the app. A delivery that arrives while the store opens waits for it (unread, within
 * SPEEDGATE_DELIVERY_HOLD_MS) and is answered as any other, instead of 503. Those 503s are logged as one
 * line each, without a stack (#39).
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
  const fake = useFakeGitHub();

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

  it("answers a signed delivery sent 100 ms after it starts listening with 200, once its store is open (PGlite)", async () => {
    // The hold is what this checks, not its default budget (8 s, under GitHub's 10 s): PGlite took over
    // 8 s to open with two CPU-bound processes and other test files beside it, so the hold here is long.
    const bot = await startBotProcess({ gheHost: fake.host, until: "listening", env: { SPEEDGATE_DELIVERY_HOLD_MS: "120000" } });
    try {
      // A delivery right after the start: the port answers, the store is still opening (about 1.5 s for PGlite).
      await new Promise((resolve) => setTimeout(resolve, 100));
      const status = await sendWebhook(bot.webhookUrl, { event: "ping", payload: { zen: "right after the start" }, secret: bot.secret });
      expect(status, bot.output()).toBe(200);
      // Answered by the app with its store open, not by a shortcut around it.
      // The log line comes on another pipe than the answer, and may arrive after it.
      expect((await bot.waitFor(/taking deliveries/))[0]).toBeTruthy();
    } finally {
      await bot.stop();
    }
  });

  const postgres = testBackends().find((backend) => backend.name === "postgres");
  describe.skipIf(!postgres?.available)(
    "while the database is still being migrated (PostgreSQL: the test holds the migration lock)",
    () => {
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

      it("answers a delivery 503 without reading it once it has waited SPEEDGATE_DELIVERY_HOLD_MS for the store", async () => {
        const url = handle.target.kind === "postgres" ? handle.target.url : "";
        const bot = await startBotProcess({
          gheHost: fake.host,
          env: { DATABASE_URL: url, SPEEDGATE_DELIVERY_HOLD_MS: "300" },
          until: "listening",
        });
        try {
          // The migration lock is held for the whole test: the hold ends by its bound, not by the store.
          expect(await sendWebhook(bot.webhookUrl, { event: "ping", payload: { zen: "too early" }, secret: bot.secret })).toBe(503);
          expect(await get(bot.port, "/ready")).toEqual({ status: 503, body: '{"status":"starting"}\n' });
          // Answers the app gives on purpose, logged as lines: pino-http's made-up error and its stack made each a wall of text.
          for (const request of ["POST \\/api\\/github\\/webhooks", "GET \\/ready"]) {
            const line = (await bot.waitFor(new RegExp(`^\\{.*"msg":"${request} 503 - \\d+ms"\\}$`, "m")))[0];
            expect(line).not.toMatch(/"err"|stack|failed with status code/);
          }
        } finally {
          // Killed: a stop waits for the store to finish opening, which the held lock does not let it.
          await bot.kill();
        }
      });

      it(
        "answers /ping at once and /ready 503 'starting' while migrating, holds a delivery unread meanwhile, and answers it 200 once " +
          "migrated",
        async () => {
          const url = handle.target.kind === "postgres" ? handle.target.url : "";
          // A hold longer than any migration here: the delivery's answer waits for the lock's release, not for a clock.
          const bot = await startBotProcess({
            gheHost: fake.host,
            env: { DATABASE_URL: url, SPEEDGATE_DELIVERY_HOLD_MS: "120000" },
            until: "listening",
          });
          try {
            expect((await get(bot.port, "/ping")).status).toBe(200);
            expect(await get(bot.port, "/ready")).toEqual({ status: 503, body: '{"status":"starting"}\n' });
            let answered: number | null = null;
            const early = sendWebhook(bot.webhookUrl, { event: "ping", payload: { zen: "early" }, secret: bot.secret }).then(
              (status) => (answered = status),
            );
            // Requests after it are answered while it waits: it is held, not queued behind a stalled server.
            expect(await get(bot.port, "/ready")).toEqual({ status: 503, body: '{"status":"starting"}\n' });
            expect((await get(bot.port, "/ping")).status).toBe(200);
            expect(answered).toBeNull();
            expect(bot.output()).not.toContain("taking deliveries");

            await holder.query("COMMIT");
            expect(await early).toBe(200);
            // Its log line comes on another pipe than the answer, and may arrive after it.
            expect((await bot.waitFor(/taking deliveries/))[0]).toBeTruthy();
            expect(await get(bot.port, "/ready")).toEqual({ status: 200, body: '{"status":"ready"}\n' });
            expect(await sendWebhook(bot.webhookUrl, { event: "ping", payload: { zen: "late" }, secret: bot.secret })).toBe(200);
          } finally {
            await bot.stop();
          }
        },
      );
    },
  );
});
