import { createHmac, randomUUID } from "node:crypto";
import { type Server, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_BODY_LIMITS, createBodyGuard } from "../../bot/guard-webhook-body.js";
import { MIN_CHARGE, WebhookBodyBudget } from "../../bot/webhook-body-budget.js";
import { createTestProbot } from "../../harness/fake-github/create-test-probot.js";
import { type HeldHeaders, type HeldHeadersOptions, holdWebhookHeaders } from "../support/hold-webhook-headers.js";

/*
 * The headers-only lock-out: connections that send a request's headers, declaring bodies of 1 to 25 MiB,
 * and no body byte, each replaced just after the 1 s grace, from two addresses. When a body was charged
 * what it declared, 20 of them (16 × 1 MiB fill the reserve, 25 + 25 and 25 + 9 MiB the shared pool)
 * got 140 of 150 signed deliveries answered 503. Here the guard (default limits) stands in front of
 * Probot's own webhook middleware, which checks the signature, and signed deliveries from one of the
 * attacker's addresses (GitHub and the attacker behind one proxy) must be answered 200 while the attack
 * goes on, with what the budget accounts staying small.
 */

const MiB = 1024 * 1024;
const PATH = "/api/github/webhooks";
const SECRET = "headers-only-secret";
const ATTACK_HEADERS = {
  "content-type": "application/json",
  "x-github-event": "issue_comment",
  "x-github-delivery": "attack",
  "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
};
/** The reported attack: 16 bodies of 1 MiB and four of 25, 25, 25 and 9 MiB, all declared, none sent. */
const REPORTED = [...Array.from({ length: 16 }, () => MiB), 25 * MiB, 25 * MiB, 25 * MiB, 9 * MiB];

let port = 0;
let server: Server;
let budget: WebhookBodyBudget;
const attacks: HeldHeaders[] = [];

beforeAll(async () => {
  const probot = await createTestProbot({ fakeUrl: "http://127.0.0.1:9", appId: 1, secret: SECRET, app: false });
  const webhooks = await probot.getNodeMiddleware({ path: PATH });
  budget = new WebhookBodyBudget(DEFAULT_WEBHOOK_BODY_LIMITS);
  const guard = createBodyGuard(webhooks, { ...DEFAULT_WEBHOOK_BODY_LIMITS, path: PATH, log: { warn: () => undefined }, budget });
  server = createServer((incoming, response) => {
    void guard(incoming, response, () => response.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  return async () => {
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  };
});

afterEach(() => {
  for (const attack of attacks.splice(0)) attack.stop();
});

/** A signed delivery from `localAddress`, headers and body in one go as GitHub sends them; resolves with the status. */
async function deliver(localAddress: string): Promise<number> {
  const body = JSON.stringify({ action: "created", comment: { id: 1, body: "/rescore", padding: "x".repeat(8 * 1024) } });
  const signature = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
  return await new Promise<number>((resolve) => {
    const sent = request(
      {
        host: "127.0.0.1",
        port,
        path: PATH,
        method: "POST",
        localAddress,
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "x-github-event": "issue_comment",
          "x-github-delivery": randomUUID(),
          "x-hub-signature-256": signature,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on("error", () => resolve(0));
    sent.end(body);
  });
}

/** Sends `count` signed deliveries one after the other, a little apart, and returns their statuses. */
async function deliverDuring(count: number, localAddress: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) {
    statuses.push(await deliver(localAddress));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return statuses;
}

/**
 * Starts the attack, waits until `held` of its connections are held at once (read from the budget, not
 * slept for), then sends `count` signed deliveries from 127.0.0.1 and expects at least 90% answered 200.
 */
async function deliverUnderAttack(
  attackOptions: Omit<HeldHeadersOptions, "port" | "headers">,
  held: number,
  count: number,
): Promise<HeldHeaders> {
  const attack = holdWebhookHeaders({ ...attackOptions, port, headers: ATTACK_HEADERS });
  attacks.push(attack);
  while (budget.usage().incomplete < held) await new Promise((resolve) => setTimeout(resolve, 10));
  const statuses = await deliverDuring(count, "127.0.0.1");
  const answered = statuses.filter((status) => status === 200).length;
  // For the report: how many got through, and what the attack and the budget came to.
  console.info(
    `${answered} of ${statuses.length} signed deliveries answered 200; ${attack.opened()} attack connections opened, ` +
      `${attack.endedByApp()} ended by the app; budget peak ${JSON.stringify(budget.peak())}`,
  );
  expect(answered, `statuses: ${statuses.join(" ")}`).toBeGreaterThanOrEqual(Math.ceil(0.9 * statuses.length));
  return attack;
}

describe("the webhook endpoint under connections that send headers and no body", () => {
  it(
    "answers at least 90% of signed deliveries 200 during the reported " + "attack, the budget holding what arrived, not what was declared",
    async () => {
      expect(await deliver("127.0.0.1")).toBe(200);
      const attack = await deliverUnderAttack(
        {
          localAddresses: ["127.0.0.1", "127.0.0.2"],
          declaredBytes: REPORTED,
          holdMs: DEFAULT_WEBHOOK_BODY_LIMITS.graceMs + 50,
          reopenMs: 10,
        },
        REPORTED.length,
        60,
      );
      // The attack was in place: its connections were replaced, each past its grace, for the whole time.
      expect(attack.opened()).toBeGreaterThan(2 * REPORTED.length);
      // What the budget holds is the connections' cost and the deliveries' bytes: declared, it would have been 141 MiB.
      const peak = budget.peak();
      expect(peak.reserve + peak.shared).toBeLessThan((REPORTED.length + 8) * MIN_CHARGE + 4 * 8 * 1024 + MiB);
    },
    60_000,
  );

  it("keeps answering signed deliveries when the headers-only connections are more than the caps allow", async () => {
    const limits = DEFAULT_WEBHOOK_BODY_LIMITS;
    // A quarter over a peer's cap from each of five addresses, 400 in all, over the total's 256 too: the
    // count caps, not the bytes, are pressed, and 127.0.0.1's own cap is full when its deliveries arrive.
    const attack = await deliverUnderAttack(
      {
        localAddresses: ["127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"],
        declaredBytes: Array.from({ length: 5 * 1.25 * limits.maxPeerIncompleteBodies }, () => 25 * MiB),
        holdMs: limits.graceMs + 50,
        reopenMs: 250,
      },
      limits.maxIncompleteBodies,
      40,
    );
    expect(attack.endedByApp()).toBeGreaterThan(0);
    const peak = budget.peak();
    expect(peak.incomplete).toBeLessThanOrEqual(limits.maxIncompleteBodies);
    expect(peak.reserve + peak.shared).toBeLessThan((limits.maxIncompleteBodies + 8) * MIN_CHARGE + MiB);
  }, 60_000);
});
