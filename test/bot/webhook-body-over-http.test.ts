import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { beforeEach, describe, expect, it } from "vitest";
import type { BotProcess } from "../support/fake-github/start-bot-process.js";
import { useBotProcess } from "../support/fake-github/use-bot-process.js";

/*
 * Issue #12, point 1: the webhook endpoint must not buffer an unauthenticated body. `npm run bot`
 * runs with a 1 MiB body limit and a 1 s body timeout (the defaults are 25 MiB and 30 s; the test
 * needs small ones, not different code), and a raw HTTP client attacks it. Before the guard, Probot
 * read the whole body before answering, and a trickling body held the connection for minutes.
 */

const LIMIT = 1024 * 1024;
const HUGE = 64 * 1024 * 1024;

interface Attack {
  status: number | null;
  /** Bytes the client managed to hand to its socket before the app answered or cut the connection. */
  written: number;
}

/** Sends `total` bytes (or trickles forever when `trickle`) and resolves at the answer or the cut. */
async function attack(bot: BotProcess, options: { headers: Record<string, string>; total: number; trickle?: boolean }): Promise<Attack> {
  return await new Promise<Attack>((resolve) => {
    let written = 0;
    let status: number | null = null;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve({ status, written });
    };
    const client: ClientRequest = request({
      host: "127.0.0.1",
      port: bot.port,
      path: "/api/github/webhooks",
      method: "POST",
      headers: options.headers,
    });
    client.on("response", (response: IncomingMessage) => {
      status = response.statusCode ?? null;
      response.resume();
      response.on("end", finish);
      response.on("error", finish);
    });
    client.on("error", finish);
    client.on("close", finish);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    if (options.trickle) {
      // One byte, then nothing more: the app must end it on its own clock.
      client.write("{");
      written = 1;
      return;
    }
    // One chunk per turn of the event loop, so the client reads the app's answer as soon as it comes
    // and stops sending, as a real client would.
    const pump = (): void => {
      if (done || status !== null) return;
      if (written >= options.total) {
        client.end();
        return;
      }
      written += chunk.length;
      if (client.write(chunk)) setImmediate(pump);
      else client.once("drain", pump);
    };
    pump();
  });
}

const GITHUB_HEADERS = {
  "content-type": "application/json",
  "x-github-event": "issue_comment",
  "x-github-delivery": "attack",
  // Not a valid signature: what matters is that the body is refused before anyone could check one.
  "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
};

describe("the webhook endpoint under an unauthenticated body attack (`npm run bot`)", () => {
  const { fake, bot: running } = useBotProcess({ env: { WEBHOOK_MAX_BODY_BYTES: String(LIMIT), WEBHOOK_BODY_TIMEOUT_MS: "1000" } });
  let bot: BotProcess;
  beforeEach(() => {
    bot = running();
  });

  it("answers 413 to an unsigned body whose content-length is over the limit, without reading it", async () => {
    const result = await attack(bot, { headers: { "content-type": "application/json", "content-length": String(HUGE) }, total: HUGE });
    expect(result.status).toBe(413);
    // The app cut the connection: the client could not hand over the 64 MiB it declared.
    expect(result.written).toBeLessThan(HUGE);
    await bot.waitFor(/refused with 413 after reading 0 bytes: body of 67108864 bytes is over the 1048576-byte limit/);
    expect(fake.requests).toEqual([]);
  });

  it("answers 413 to a chunked body once it passes the limit, having buffered no more than the limit", async () => {
    const result = await attack(bot, { headers: { ...GITHUB_HEADERS, "transfer-encoding": "chunked" }, total: HUGE });
    expect(result.status).toBe(413);
    expect(result.written).toBeLessThan(HUGE);
    const refused = await bot.waitFor(/refused with 413 after reading (\d+) bytes: body is over the 1048576-byte limit/);
    // What the guard kept in memory: never more than the limit, however much was sent.
    expect(Number(refused[1])).toBeLessThanOrEqual(LIMIT);
    expect(fake.requests).toEqual([]);
  });

  it("answers 400 to a body without GitHub's delivery headers before reading any of it", async () => {
    const result = await attack(bot, { headers: { "content-type": "application/json", "transfer-encoding": "chunked" }, total: HUGE });
    expect(result.status).toBe(400);
    expect(result.written).toBeLessThan(HUGE);
    await bot.waitFor(
      /refused with 400 after reading 0 bytes: required headers missing: x-github-event, x-github-delivery, x-hub-signature-256/,
    );
  });

  it("answers 408 to a body that trickles", async () => {
    const result = await attack(bot, { headers: { ...GITHUB_HEADERS, "content-length": "100" }, total: 100, trickle: true });
    expect(result.status).toBe(408);
    await bot.waitFor(/refused with 408 after reading 1 bytes: body not received within 1000 ms/);
    expect(fake.requests).toEqual([]);
  });

  it("still answers /ping and refuses a wrongly signed delivery of normal size as before", async () => {
    const ping = await fetch(`http://127.0.0.1:${bot.port}/ping`);
    expect(await ping.text()).toBe("PONG");
    const small = await fetch(bot.webhookUrl, { method: "POST", headers: GITHUB_HEADERS, body: JSON.stringify({ action: "created" }) });
    await small.arrayBuffer();
    expect(small.status).toBeGreaterThanOrEqual(400);
    expect(small.status).toBeLessThan(500);
    expect(small.status).not.toBe(413);
  });
});
