import type { Logger } from "../logger.js";
import type { RedeliveryCandidate } from "../store/claim-redelivery.js";
import { type GitHubClient, statusOf } from "./github-client.js";

/*
 * GitHub never redelivers a webhook by itself. Deliveries that failed while the app was down (or
 * answered 5xx) are found in the App's delivery log (GET /app/hook/deliveries, newest first, cursor
 * pagination) and asked for again (POST /app/hook/deliveries/{id}/attempts). Both need the App's JWT,
 * not an installation token.
 */

export interface HookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  status_code: number;
  event: string;
  action: string | null;
}

export interface RedeliverOptions {
  /** Authenticated as the App (its JWT). */
  client: GitHubClient;
  /** Deliveries older than this are left alone. */
  since: Date;
  /** Whether this replica should ask for a guid (claimRedelivery): replicas share the work and the caps. */
  claim: (candidate: RedeliveryCandidate) => Promise<boolean>;
  logger: Logger;
  /** Pages of 100 read at most, newest first. */
  maxPages?: number;
}

export interface RedeliveryReport {
  /** Deliveries read from the log. */
  examined: number;
  /** Events (guids) whose every attempt failed in a way a new attempt may fix. */
  failed: number;
  /** Guids this replica asked GitHub to send again. */
  requested: string[];
  /** Guids whose new attempt GitHub refused. */
  refused: string[];
}

/** A delivery GitHub would call a success (its status_code 200 to 399). */
function succeeded(delivery: HookDelivery): boolean {
  return delivery.status_code >= 200 && delivery.status_code < 400;
}

/**
 * The app's own deliberate refusals (a bad signature, a body too large: 4xx) fail again the same way; a
 * connection failure or timeout (GitHub records 0), a 5xx, 408 or 429 may not.
 */
function worthAnotherAttempt(delivery: HookDelivery): boolean {
  const code = delivery.status_code;
  return code === 0 || code === 408 || code === 429 || code >= 500;
}

function nextCursor(link: string | number | undefined): string | null {
  if (typeof link !== "string") return null;
  for (const part of link.split(",")) {
    if (!/rel="next"/.test(part)) continue;
    const url = /<([^>]+)>/.exec(part)?.[1];
    if (!url) continue;
    return new URL(url).searchParams.get("cursor");
  }
  return null;
}

function isHookDelivery(value: unknown): value is HookDelivery {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item.id === "number" &&
    typeof item.guid === "string" &&
    typeof item.delivered_at === "string" &&
    typeof item.status_code === "number" &&
    typeof item.event === "string"
  );
}

export async function listRecentDeliveries(client: GitHubClient, since: Date, maxPages: number): Promise<HookDelivery[]> {
  const deliveries: HookDelivery[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const response = await client.request("GET /app/hook/deliveries", { per_page: 100, ...(cursor ? { cursor } : {}) });
    const items = Array.isArray(response.data) ? response.data.filter(isHookDelivery) : [];
    deliveries.push(...items);
    const oldest = items.at(-1);
    cursor = nextCursor(response.headers.link);
    if (!cursor || !oldest || Date.parse(oldest.delivered_at) < since.getTime()) break;
  }
  return deliveries.filter((delivery) => Date.parse(delivery.delivered_at) >= since.getTime());
}

/** A failed delivery's newest attempt, with when GitHub first tried it. */
export interface FailedDelivery extends HookDelivery {
  firstDeliveredAt: string;
}

/** Guids none of whose attempts succeeded, each with its newest attempt and the time of its oldest. */
export function findFailedDeliveries(deliveries: readonly HookDelivery[]): FailedDelivery[] {
  const byGuid = new Map<string, HookDelivery[]>();
  for (const delivery of deliveries) byGuid.set(delivery.guid, [...(byGuid.get(delivery.guid) ?? []), delivery]);
  const failed: FailedDelivery[] = [];
  for (const attempts of byGuid.values()) {
    if (attempts.some(succeeded)) continue;
    const newest = attempts.reduce((a, b) =>
      Date.parse(b.delivered_at) > Date.parse(a.delivered_at) || (b.delivered_at === a.delivered_at && b.id > a.id) ? b : a,
    );
    const oldest = attempts.reduce((a, b) => (Date.parse(b.delivered_at) < Date.parse(a.delivered_at) ? b : a));
    if (worthAnotherAttempt(newest)) failed.push({ ...newest, firstDeliveredAt: oldest.delivered_at });
  }
  return failed.sort((a, b) => Date.parse(a.delivered_at) - Date.parse(b.delivered_at));
}

/** Asks GitHub to send again, oldest first, each failed delivery of the window that no replica asked for yet. */
export async function redeliverFailedDeliveries(options: RedeliverOptions): Promise<RedeliveryReport> {
  const deliveries = await listRecentDeliveries(options.client, options.since, options.maxPages ?? 20);
  const failed = findFailedDeliveries(deliveries);
  const report: RedeliveryReport = { examined: deliveries.length, failed: failed.length, requested: [], refused: [] };
  for (const delivery of failed) {
    const claimed = await options.claim({
      guid: delivery.guid,
      deliveryId: delivery.id,
      event: delivery.event,
      firstDeliveredAt: delivery.firstDeliveredAt,
    });
    if (!claimed) continue;
    try {
      await options.client.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: delivery.id });
      report.requested.push(delivery.guid);
    } catch (error) {
      const status = statusOf(error);
      if (status === null || status >= 500) throw error;
      // GitHub refuses some (too old, already being redelivered): nothing this app can change.
      report.refused.push(delivery.guid);
      options.logger.warn(`GitHub refused to redeliver ${delivery.event} delivery ${delivery.id} (${delivery.guid}): ${status}`);
    }
  }
  if (report.failed > 0) {
    options.logger.info(
      `redelivery: ${report.failed} failed deliveries since ${options.since.toISOString()}, asked GitHub for ${report.requested.length}` +
        (report.refused.length > 0 ? `, ${report.refused.length} refused` : ""),
    );
  }
  return report;
}
