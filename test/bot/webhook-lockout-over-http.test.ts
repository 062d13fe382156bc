import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OWNER, REPO, issueCommentCreated } from "../../harness/fake-github/adjust-payloads.js";
import { serveAppDeliveries } from "../support/fake-github/serve-app-deliveries.js";
import { deliverAndSettle, sendWebhook } from "../../harness/fake-github/send-webhook.js";
import { type FakePull, serveRepository } from "../../harness/fake-github/serve-repository.js";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";
import { MIN_CHARGE } from "../../bot/webhook-body-budget.js";
import { type HeldUploads, holdWebhookUploads } from "../../harness/hold-webhook-uploads.js";
import { findListeningProcess, readProcessMemory, resetPeakMemory } from "../support/read-process-memory.js";

/*
 * Issue #24, point 1: four unsigned POSTs of 25 MiB − 1 byte, held open, filled the app's shared
 * 100 MiB body budget, and a correctly signed 1 KiB delivery got 503 for as long as they were held.
 * Here eight are held (each one the app answers or cuts is opened again) against `npm run bot` with
 * its default limits, all from the same address as the signed deliveries (GitHub behind the same
 * proxy as the attacker), and signed `/rescore` deliveries must still be answered 200 and handled,
 * while the app's resident memory stays within its body budget.
 */

const MiB = 1024 * 1024;
const UPLOAD = 25 * MiB - 1;
/** WEBHOOK_MAX_BUFFERED_BYTES's default: what all bodies in flight may hold together. */
const BUDGET = 100 * MiB;
const SHA = "d4".repeat(20);
const ROLES = { maintainer: "maintain" };
const UNSIGNED = {
  "content-type": "application/json",
  "x-github-event": "issue_comment",
  "x-github-delivery": "attack",
  "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
};

let nextPull = 900;
function newPull(): FakePull {
  nextPull++;
  return {
    number: nextPull,
    headSha: SHA,
    headRepo: `${OWNER}/${REPO}`,
    headBranch: `topic-${nextPull}`,
    author: "outsider",
    pushedAt: new Date(Date.now() - 30 * 60_000).toISOString(),
  };
}

describe("the webhook endpoint cannot be locked out by unsigned uploads held open (`npm run bot`, default limits)", () => {
  const { fake, bot: running } = useBotProcess();
  let bot: BotProcess;
  let attack: HeldUploads | null = null;
  beforeEach(() => {
    bot = running();
  });
  afterEach(() => {
    attack?.stop();
    attack = null;
  });

  it("answers and handles signed deliveries while eight 25 MiB uploads are held open, within its memory budget", async () => {
    const pid = findListeningProcess(bot.port, bot.processGroup);
    // A delivery before the attack, so what the first one loads (the job runner, the fake's routes) is not counted as the attack's.
    const warm = newPull();
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [warm], roles: ROLES });
    expect(
      await deliverAndSettle(bot, "issue_comment", issueCommentCreated({ number: warm.number, body: "/rescore", login: "maintainer" })),
    ).toBe(200);
    resetPeakMemory(pid);
    const before = readProcessMemory(pid).rssBytes;

    attack = holdWebhookUploads({ port: bot.port, count: 8, declaredBytes: UPLOAD, headers: UNSIGNED, reopenMs: 250 });
    await attack.inPlace;
    // The attack reached the app's bounds: it refused or cut some of the uploads.
    await bot.waitFor(/refused with 503 after reading \d+ bytes/);

    const pulls = [newPull(), newPull(), newPull()];
    repo.pulls.push(...pulls);
    for (const pull of pulls) {
      const id = randomUUID();
      expect(
        await deliverAndSettle(
          bot,
          "issue_comment",
          issueCommentCreated({ number: pull.number, body: "/rescore", login: "maintainer" }),
          id,
        ),
      ).toBe(200);
    }
    // Handled, not only acknowledged: each was dispatched for its own pull request.
    expect(repo.dispatches.map((dispatch) => dispatch.inputs.pr)).toEqual([warm, ...pulls].map((pull) => String(pull.number)));

    const peak = readProcessMemory(pid).peakRssBytes;
    attack.stop();
    // Eight uploads of 25 MiB held would be 200 MiB; the bodies in flight are held to the budget, and
    // the rest of the process (the upload chunks not yet collected, the deliveries' work) to less than half of it again.
    expect(peak - before, `resident memory grew from ${before} to a peak of ${peak} bytes`).toBeLessThan(BUDGET * 1.5);
    expect(attack.opened()).toBeGreaterThan(8);
  }, 120_000);
});

describe("a delivery the app answered 503 itself is asked for again (`npm run bot`)", () => {
  // Small limits so that a few held uploads fill everything, a grace long enough that none is cut, and
  // a short quiet period before the app asks GitHub for what failed.
  const { fake, bot: running } = useBotProcess({
    env: {
      WEBHOOK_MAX_BODY_BYTES: String(MiB),
      WEBHOOK_MAX_BUFFERED_BYTES: String(2 * MiB),
      // Three small uploads, each charged its bytes and its connection, fill it to the last bytes.
      WEBHOOK_RESERVED_BYTES: String(3 * (64 * 1024 + MIN_CHARGE)),
      WEBHOOK_SMALL_BODY_BYTES: String(64 * 1024),
      WEBHOOK_MAX_PEER_BUFFERED_BYTES: String(MiB + MIN_CHARGE),
      WEBHOOK_BODY_GRACE_MS: "60000",
      // The uploads are held open, not starved: this is about asking again, not about cutting.
      WEBHOOK_MIN_BODY_BYTES_PER_SECOND: "1",
      WEBHOOK_BODY_TIMEOUT_MS: "60000",
      SPEEDGATE_REDELIVER_AFTER_MS: "300",
    },
  });
  let bot: BotProcess;
  const attacks: HeldUploads[] = [];
  beforeEach(() => {
    bot = running();
  });
  afterEach(() => {
    for (const attack of attacks.splice(0)) attack.stop();
  });

  it("answers a signed delivery 503 while everything is held, then asks GitHub to send it again and handles it", async () => {
    const pull = newPull();
    const repo = serveRepository(fake, { owner: OWNER, repo: REPO, appId: bot.appId, pulls: [pull], roles: ROLES });
    // The attacker holds its address's share of the shared pool (a 1 MiB upload) and the reserve (three of 64 KiB).
    const large = holdWebhookUploads({ port: bot.port, count: 1, declaredBytes: MiB, headers: UNSIGNED });
    const small = holdWebhookUploads({ port: bot.port, count: 3, declaredBytes: 64 * 1024, headers: UNSIGNED });
    attacks.push(large, small);
    await Promise.all([large.inPlace, small.inPlace]);

    const id = randomUUID();
    const payload = issueCommentCreated({ number: pull.number, body: "/rescore", login: "maintainer" });
    const log = serveAppDeliveries(fake, {
      deliveries: [],
      // GitHub sends the delivery again once asked; by then the attack is over.
      redeliver: async () => {
        for (const attack of attacks) attack.stop();
        return await sendWebhook(bot.webhookUrl, { event: "issue_comment", payload, id, secret: bot.secret });
      },
    });
    // What GitHub records of the attempt below, in the App's delivery log (there before the app can look).
    log.deliveries.push({
      id: fake.nextId(),
      guid: id,
      deliveredAt: new Date().toISOString(),
      redelivery: false,
      statusCode: 503,
      event: "issue_comment",
      action: "created",
    });
    const status = await sendWebhook(bot.webhookUrl, { event: "issue_comment", payload, id, secret: bot.secret });
    expect(status).toBe(503);
    expect(repo.dispatches).toEqual([]);

    await bot.waitFor(/redelivery: 1 failed deliveries since .*, asked GitHub for 1/);
    await bot.settled(id);
    expect(log.attempts).toHaveLength(1);
    expect(repo.dispatches).toMatchObject([{ inputs: { pr: String(pull.number), sha: SHA } }]);
  }, 60_000);
});
