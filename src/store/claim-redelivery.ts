import type { Queryable } from "./database.js";

export interface RedeliveryCandidate {
  guid: string;
  /** The delivery (attempt) to ask GitHub to send again: the newest one of the guid. */
  deliveryId: number;
  event: string;
  /** When GitHub first tried to send it (its oldest attempt seen): a command's age is judged at that time. */
  firstDeliveredAt?: string | null;
}

export const MAX_REDELIVERY_REQUESTS = 3;

/**
 * True when this replica should ask GitHub to redeliver: nobody asked yet, or the last ask was answered
 * by an attempt that failed again (the newest attempt is not the one asked about: each attempt has its
 * own id, so no clock is compared), and fewer than `maxRequests` were made. Replicas starting together
 * race on one row, so each failed delivery is asked for once per round.
 */
export async function claimRedelivery(
  queryable: Queryable,
  candidate: RedeliveryCandidate,
  maxRequests = MAX_REDELIVERY_REQUESTS,
): Promise<boolean> {
  const { rowCount } = await queryable.query(
    `INSERT INTO speedgate.redeliveries AS r (guid, delivery_id, event, first_delivered_at) VALUES ($1, $2, $3, $5)
     ON CONFLICT (guid) DO UPDATE SET requests = r.requests + 1, delivery_id = EXCLUDED.delivery_id, last_requested_at = now(),
       first_delivered_at = least(r.first_delivered_at, EXCLUDED.first_delivered_at)
     WHERE r.requests < $4 AND r.delivery_id <> EXCLUDED.delivery_id`,
    [candidate.guid, candidate.deliveryId, candidate.event, maxRequests, candidate.firstDeliveredAt ?? null],
  );
  return rowCount === 1;
}
