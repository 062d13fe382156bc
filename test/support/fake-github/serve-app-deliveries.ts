import type { FakeGitHub, FakeRequest, FakeResponse } from "../../../harness/fake-github/fake-github-server.js";

/*
 * The App's webhook delivery log: GET /app/hook/deliveries (newest first, `cursor` pagination through
 * the Link header, as GitHub pages it) and POST /app/hook/deliveries/{delivery_id}/attempts. Both are
 * refused unless authenticated as the App (a JWT), as GitHub does with an installation token.
 */

export interface FakeDelivery {
  id: number;
  guid: string;
  deliveredAt: string;
  redelivery: boolean;
  statusCode: number;
  event: string;
  action: string | null;
}

export interface FakeDeliveryLog {
  deliveries: FakeDelivery[];
  /** Delivery ids the app asked to redeliver, in order. */
  attempts: number[];
}

export interface FakeDeliveryLogOptions {
  deliveries: FakeDelivery[];
  /** The status code the app answers a redelivery with, recorded as a new delivery (default 202). */
  redeliveryStatus?: (delivery: FakeDelivery) => number;
  /**
   * Sends the delivery again to the app, as GitHub does after accepting the request (not before it
   * answers 202): the new attempt is logged with the status the app answered.
   */
  redeliver?: (delivery: FakeDelivery) => Promise<number>;
  /** Answers a redelivery request differently (GitHub's 422 for a delivery too old, a 502). */
  refuseAttempt?: (delivery: FakeDelivery) => FakeResponse | null;
}

const JWT = /^bearer [\w-]+\.[\w-]+\.[\w-]+$/i;

function asItem(delivery: FakeDelivery): Record<string, unknown> {
  return {
    id: delivery.id,
    guid: delivery.guid,
    delivered_at: delivery.deliveredAt,
    redelivery: delivery.redelivery,
    duration: 0.1,
    status:
      delivery.statusCode === 0
        ? "failed to connect"
        : delivery.statusCode < 400
          ? "OK"
          : "Invalid HTTP Response: " + String(delivery.statusCode),
    status_code: delivery.statusCode,
    event: delivery.event,
    action: delivery.action,
    installation_id: 1,
    repository_id: 1,
  };
}

export function serveAppDeliveries(fake: FakeGitHub, options: FakeDeliveryLogOptions): FakeDeliveryLog {
  const log: FakeDeliveryLog = { deliveries: [...options.deliveries], attempts: [] };
  const unauthorized = (request: FakeRequest): FakeResponse | null => {
    const header = String(request.headers.authorization ?? "");
    if (JWT.test(header)) return null;
    fake.violations.push(`${request.method} ${request.template} without the App's JWT (authorization: ${header.split(" ")[0] ?? ""})`);
    return { status: 401, body: { message: "A JSON web token could not be decoded" } };
  };
  const newestFirst = (): FakeDelivery[] =>
    [...log.deliveries].sort((a, b) => Date.parse(b.deliveredAt) - Date.parse(a.deliveredAt) || b.id - a.id);

  fake.on("GET", "/app/hook/deliveries", (request) => {
    const refused = unauthorized(request);
    if (refused) return refused;
    const perPage = Math.min(Number(request.query.get("per_page") ?? "30"), 100);
    const ordered = newestFirst();
    const cursor = request.query.get("cursor");
    const start = cursor ? ordered.findIndex((delivery) => String(delivery.id) === cursor) : 0;
    if (start < 0) return { status: 422, body: { message: "invalid cursor" } };
    const page = ordered.slice(start, start + perPage);
    const next = ordered[start + perPage];
    const headers: Record<string, string> = next
      ? { link: `<${fake.apiUrl}/app/hook/deliveries?per_page=${perPage}&cursor=${next.id}>; rel="next"` }
      : {};
    return { status: 200, body: page.map(asItem), headers };
  });

  fake.on("POST", "/app/hook/deliveries/{delivery_id}/attempts", (request) => {
    const refused = unauthorized(request);
    if (refused) return refused;
    const delivery = log.deliveries.find((candidate) => String(candidate.id) === request.pathParams.delivery_id);
    if (!delivery) return { status: 404, body: { message: "Not Found" } };
    const answer = options.refuseAttempt?.(delivery);
    if (answer) return answer;
    log.attempts.push(delivery.id);
    const attempt: FakeDelivery = {
      ...delivery,
      id: fake.nextId(),
      redelivery: true,
      deliveredAt: new Date(Date.parse(fake.now())).toISOString(),
      statusCode: options.redeliveryStatus?.(delivery) ?? 202,
    };
    log.deliveries.push(attempt);
    if (options.redeliver) {
      void options.redeliver(delivery).then(
        (status) => {
          attempt.statusCode = status;
        },
        () => {
          attempt.statusCode = 0;
        },
      );
    }
    return { status: 202, body: {} };
  });
  return log;
}
