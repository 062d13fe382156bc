import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getOctokit } from "@actions/github";
import type { Probot } from "probot";
import { type HookDelivery, findFailedDeliveries, redeliverFailedDeliveries } from "../../src/github/redeliver-failed-deliveries.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import { createRecordingLogger, silentLogger } from "../../src/logger.js";
import { MAX_REDELIVERY_REQUESTS, claimRedelivery } from "../../src/store/claim-redelivery.js";
import type { Database } from "../../src/store/database.js";
import { describeEachBackend, useTestDatabase } from "../support/database/database-backends.js";
import { createTestProbot } from "../../harness/fake-github/create-test-probot.js";
import { type FakeDelivery, serveAppDeliveries } from "../support/fake-github/serve-app-deliveries.js";
import { useFakeGitHub } from "../support/fake-github/use-fake-github.js";

const APP_ID = 4242;
const SINCE = new Date("2025-12-31T20:00:00Z");
let nextId = 1;

function delivery(guid: string, deliveredAt: string, statusCode: number, event = "workflow_run"): FakeDelivery {
  return { id: nextId++, guid, deliveredAt, redelivery: false, statusCode, event, action: "completed" };
}

describe("findFailedDeliveries", () => {
  const item = (guid: string, at: string, status_code: number, id = nextId++): HookDelivery => ({
    id,
    guid,
    delivered_at: at,
    redelivery: false,
    status_code,
    event: "issue_comment",
    action: "created",
  });

  it("keeps an event none of whose attempts succeeded, with its newest attempt, and only failures a new attempt may fix", () => {
    const failed = findFailedDeliveries([
      item("down", "2026-01-01T00:00:01Z", 0, 1),
      item("down", "2026-01-01T00:00:05Z", 502, 2),
      item("fixed", "2026-01-01T00:00:02Z", 500),
      item("fixed", "2026-01-01T00:00:06Z", 200),
      item("forged", "2026-01-01T00:00:03Z", 401),
      item("too-big", "2026-01-01T00:00:04Z", 413),
      item("slow", "2026-01-01T00:00:00Z", 408, 9),
    ]);
    expect(failed.map((entry) => [entry.guid, entry.id, entry.firstDeliveredAt])).toEqual([
      ["slow", 9, "2026-01-01T00:00:00Z"],
      // The newest attempt is asked for again; a command's age is judged at the oldest.
      ["down", 2, "2026-01-01T00:00:01Z"],
    ]);
  });
});

describeEachBackend("redeliverFailedDeliveries against the GitHub fake", (backend) => {
  const fake = useFakeGitHub();
  let probot: Probot;
  let appClient: GitHubClient;
  const test = useTestDatabase(backend);
  let database: Database;

  beforeAll(async () => {
    probot = await createTestProbot({ fakeUrl: fake.url, appId: APP_ID, app: false });
  });
  beforeEach(async () => {
    database = test.database();
    await database.pool.query("DELETE FROM speedgate.redeliveries");
    // The App's own JWT, as Probot's app.auth() gives it; installation tokens are refused by the fake.
    appClient = await probot.auth();
  });

  const claim = (candidate: Parameters<typeof claimRedelivery>[1]) => claimRedelivery(database.pool, candidate);

  it("asks again, oldest first, for each event whose attempts all failed in the window, across pages", async () => {
    const successes = Array.from({ length: 140 }, (_, index) =>
      delivery(`ok-${index}`, new Date(Date.parse("2025-12-31T23:00:00Z") + index * 1000).toISOString(), 200),
    );
    const log = serveAppDeliveries(fake, {
      deliveries: [
        delivery("old", "2025-12-31T10:00:00Z", 502),
        delivery("while-down", "2025-12-31T21:00:00Z", 0),
        delivery("outage", "2025-12-31T21:30:00Z", 503),
        delivery("forged", "2025-12-31T21:40:00Z", 401, "issue_comment"),
        delivery("redelivered-ok", "2025-12-31T21:50:00Z", 500),
        { ...delivery("redelivered-ok", "2025-12-31T22:00:00Z", 200), redelivery: true },
        ...successes,
      ],
    });
    const logger = createRecordingLogger();
    const report = await redeliverFailedDeliveries({ client: appClient, since: SINCE, claim, logger });
    expect(report).toMatchObject({ failed: 2, requested: ["while-down", "outage"], refused: [] });
    // 145 deliveries in the window and one before it: two pages of 100 were read.
    expect(report.examined).toBe(145);
    expect(fake.calls("GET", "/app/hook/deliveries")).toHaveLength(2);
    const byGuid = (guid: string) => log.deliveries.find((entry) => entry.guid === guid && !entry.redelivery)?.id;
    expect(log.attempts).toEqual([byGuid("while-down"), byGuid("outage")]);
    expect(logger.lines).toContainEqual({
      level: "info",
      message: `redelivery: 2 failed deliveries since ${SINCE.toISOString()}, asked GitHub for 2`,
    });
    // What the app judges a redelivered command's age by: when GitHub first tried to send it.
    const first = await database.pool.query<{ guid: string; at: Date }>(
      "SELECT guid, first_delivered_at AS at FROM speedgate.redeliveries ORDER BY guid",
    );
    expect(first.rows.map((row) => [row.guid, row.at.toISOString()])).toEqual([
      ["outage", "2025-12-31T21:30:00.000Z"],
      ["while-down", "2025-12-31T21:00:00.000Z"],
    ]);
  });

  it("asks once when two replicas start together", async () => {
    const log = serveAppDeliveries(fake, {
      deliveries: [delivery("a", "2025-12-31T21:00:00Z", 502), delivery("b", "2025-12-31T21:01:00Z", 0)],
    });
    const reports = await Promise.all([
      redeliverFailedDeliveries({ client: appClient, since: SINCE, claim, logger: silentLogger }),
      redeliverFailedDeliveries({ client: appClient, since: SINCE, claim, logger: silentLogger }),
    ]);
    expect(reports.flatMap((report) => report.requested).sort()).toEqual(["a", "b"]);
    expect(log.attempts).toHaveLength(2);
  });

  it("asks again after a redelivery that failed too, and stops after a few", async () => {
    const log = serveAppDeliveries(fake, { deliveries: [delivery("stuck", "2025-12-31T21:00:00Z", 502)], redeliveryStatus: () => 500 });
    const requested: string[][] = [];
    for (let start = 0; start < MAX_REDELIVERY_REQUESTS + 2; start++) {
      requested.push((await redeliverFailedDeliveries({ client: appClient, since: SINCE, claim, logger: silentLogger })).requested);
    }
    expect(requested).toEqual([...Array.from({ length: MAX_REDELIVERY_REQUESTS }, () => ["stuck"]), [], []]);
    expect(log.attempts).toHaveLength(MAX_REDELIVERY_REQUESTS);
  });

  it("does not ask again while its last ask has not been answered by a new attempt", async () => {
    // GitHub accepted the ask but has not tried yet (no new delivery in the log).
    const log = serveAppDeliveries(fake, {
      deliveries: [delivery("pending", "2025-12-31T21:00:00Z", 502)],
      refuseAttempt: () => ({ status: 202, body: {} }),
    });
    expect((await redeliverFailedDeliveries({ client: appClient, since: SINCE, claim, logger: silentLogger })).requested).toEqual([
      "pending",
    ]);
    expect((await redeliverFailedDeliveries({ client: appClient, since: SINCE, claim, logger: silentLogger })).requested).toEqual([]);
    expect(log.attempts).toEqual([]);
  });

  it("reports a redelivery GitHub refuses and goes on with the others", async () => {
    serveAppDeliveries(fake, {
      deliveries: [delivery("gone", "2025-12-31T21:00:00Z", 502), delivery("next", "2025-12-31T21:01:00Z", 502)],
      refuseAttempt: (entry) => (entry.guid === "gone" ? { status: 422, body: { message: "Validation Failed" } } : null),
    });
    const logger = createRecordingLogger();
    const report = await redeliverFailedDeliveries({ client: appClient, since: SINCE, claim, logger });
    expect(report).toMatchObject({ requested: ["next"], refused: ["gone"] });
    expect(
      logger.lines.some((line) => line.level === "warn" && line.message.startsWith("GitHub refused to redeliver workflow_run delivery")),
    ).toBe(true);
  });

  it("is refused by the fake with an installation token, as by GitHub", async () => {
    serveAppDeliveries(fake, { deliveries: [] });
    const installation = getOctokit("ghs_installation", { baseUrl: fake.apiUrl, request: { retries: 0 } });
    await expect(redeliverFailedDeliveries({ client: installation, since: SINCE, claim, logger: silentLogger })).rejects.toThrow(
      /JSON web token/,
    );
    expect(fake.violations).toEqual(["GET /app/hook/deliveries without the App's JWT (authorization: token)"]);
    fake.violations.length = 0;
  });
});
