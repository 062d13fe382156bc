import type { Probot } from "probot";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_REDELIVER_HOURS, redeliverHours, redeliverOnStart } from "../../../bot/store/redeliver-on-start.js";
import { createRecordingLogger, silentLogger } from "../../../src/logger.js";
import type { Database } from "../../../src/store/database.js";
import { pgliteBackend, useTestDatabase } from "../../support/database/database-backends.js";
import { createTestProbot } from "../../../harness/fake-github/create-test-probot.js";
import { serveAppDeliveries } from "../../support/fake-github/serve-app-deliveries.js";
import { useFakeGitHub } from "../../support/fake-github/use-fake-github.js";

describe("SPEEDGATE_REDELIVER_HOURS", () => {
  it("defaults to a few hours, takes 0 to turn it off, and refuses what GitHub does not keep", () => {
    expect(redeliverHours({})).toBe(DEFAULT_REDELIVER_HOURS);
    expect(redeliverHours({ SPEEDGATE_REDELIVER_HOURS: "0" })).toBe(0);
    expect(redeliverHours({ SPEEDGATE_REDELIVER_HOURS: "1.5" })).toBe(1.5);
    expect(() => redeliverHours({ SPEEDGATE_REDELIVER_HOURS: "96" })).toThrow(/from 0 \(off\) to 72/);
    expect(() => redeliverHours({ SPEEDGATE_REDELIVER_HOURS: "soon" })).toThrow(/got "soon"/);
  });
});

describe("redelivering at start", () => {
  const fake = useFakeGitHub();
  let probot: Probot;
  const test = useTestDatabase(pgliteBackend);
  let database: Database;
  const now = new Date("2026-01-01T06:00:00Z");

  beforeAll(async () => {
    probot = await createTestProbot({ fakeUrl: fake.url, appId: 4242, app: false });
  });
  beforeEach(() => {
    database = test.database();
  });

  it("asks GitHub, as the App, for the deliveries that failed in the window", async () => {
    const log = serveAppDeliveries(fake, {
      deliveries: [
        {
          id: 1,
          guid: "recent",
          deliveredAt: "2026-01-01T05:00:00Z",
          redelivery: false,
          statusCode: 502,
          event: "issue_comment",
          action: "created",
        },
        {
          id: 2,
          guid: "ancient",
          deliveredAt: "2025-12-31T20:00:00Z",
          redelivery: false,
          statusCode: 502,
          event: "issue_comment",
          action: "created",
        },
      ],
    });
    const report = await redeliverOnStart(probot, database, { hours: 6, logger: silentLogger, now });
    expect(report?.requested).toEqual(["recent"]);
    expect(log.attempts).toEqual([1]);
    expect(fake.violations).toEqual([]);
  });

  it("does nothing when turned off", async () => {
    expect(await redeliverOnStart(probot, database, { hours: 0, logger: silentLogger, now })).toBeNull();
    expect(fake.requests).toEqual([]);
  });

  it("only warns when GitHub cannot be asked: the app serves anyway", async () => {
    fake.on("GET", "/app/hook/deliveries", () => ({ status: 503, body: { message: "Service Unavailable" } }));
    const logger = createRecordingLogger();
    expect(await redeliverOnStart(probot, database, { hours: 6, logger, now })).toBeNull();
    expect(logger.lines).toEqual([
      {
        level: "warn",
        message: expect.stringMatching(
          /^redelivery: could not read or redeliver the failed deliveries since 2026-01-01T00:00:00.000Z: /,
        ) as string,
      },
    ]);
  });
});
