import { createHmac, randomUUID } from "node:crypto";
import { request } from "undici";

export interface WebhookDelivery {
  event: string;
  payload: unknown;
  id?: string;
  /** The secret to sign with; null sends no signature at all. */
  secret: string | null;
}

export function signPayload(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** Posts a delivery to a running app the way GitHub does; returns the HTTP status. */
export async function sendWebhook(url: string, delivery: WebhookDelivery): Promise<number> {
  const body = JSON.stringify(delivery.payload);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-github-event": delivery.event,
    "x-github-delivery": delivery.id ?? randomUUID(),
    "user-agent": "GitHub-Hookshot/fake",
  };
  if (delivery.secret !== null) headers["x-hub-signature-256"] = signPayload(body, delivery.secret);
  // A new connection each time: a test that builds a large payload can keep its event loop busy past
  // the app's keep-alive timeout, and a reused connection the app already closed fails the delivery.
  const response = await request(url, { method: "POST", headers, body, reset: true });
  await response.body.arrayBuffer();
  return response.statusCode;
}

/**
 * Posts a signed delivery to an app process and, when it was accepted (200), waits until its work is
 * over (test/support/fake-github/start-bot-process.ts): the app acknowledges a delivery once its work is
 * stored, and does the work after. Returns the HTTP status.
 */
export async function deliverAndSettle(
  bot: { webhookUrl: string; secret: string; settled: (deliveryId: string) => Promise<void> },
  event: string,
  payload: unknown,
  id: string = randomUUID(),
): Promise<number> {
  const status = await sendWebhook(bot.webhookUrl, { event, payload, id, secret: bot.secret });
  if (status === 200) await bot.settled(id);
  return status;
}
