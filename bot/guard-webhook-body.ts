import type { IncomingMessage, ServerResponse } from "node:http";
import type { Probot } from "probot";
import { type BodyBudgetLimits, type HeldBody, MIN_CHARGE, WebhookBodyBudget } from "./webhook-body-budget.js";

/*
 * Probot's webhook middleware reads a delivery's whole body before it can check the signature, so
 * an unsigned 400 MiB POST was buffered in full (the app reached 3.8 GB), and a body sent one byte at
 * a time held its connection for Node's five-minute request timeout. This guard stands in front of
 * that middleware: it refuses a body over the limit from its content-length, and again while it
 * streams, before buffering past the limit; it refuses a delivery without GitHub's headers before
 * reading any of it; it bounds what bodies in flight hold, per peer and together, keeping a reserve for
 * small deliveries (bot/webhook-body-budget.ts: who gives way when a body does not fit); and it ends a
 * body that has not arrived in time. The middleware then gets the bytes the guard read. Whatever the
 * app answers 5xx is reported (`onServerError`), so that the app asks GitHub to send it again.
 */

export interface WebhookBodyLimits extends BodyBudgetLimits {
  /** Largest body accepted (bytes). GitHub caps deliveries at 25 MB and does not send larger ones. */
  maxBytes: number;
  /** Time from the request's arrival to the body's end (ms). GitHub gives up on a delivery after 10 s. */
  timeoutMs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_WEBHOOK_BODY_LIMITS: WebhookBodyLimits = {
  maxBytes: 25 * MiB,
  timeoutMs: 10_000,
  maxBufferedBytes: 100 * MiB,
  reservedBytes: 16 * MiB,
  smallBodyBytes: 1 * MiB,
  maxPeerBufferedBytes: 50 * MiB,
  graceMs: 1_000,
  // 256 connections held at MIN_CHARGE are 4 MiB; one address may hold a quarter of them.
  maxIncompleteBodies: 256,
  maxPeerIncompleteBodies: 64,
  // A 25 MiB delivery arriving at this rate would already miss the 10 s timeout many times over.
  minBytesPerSecond: 64 * 1024,
};

/**
 * After refusing, what is still read and thrown away (never kept) so that a client still sending sees
 * the answer rather than a reset; past either bound the connection is cut.
 */
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 2_000;
/**
 * A body refused or cut for room (503) comes from a flood: what is thrown away is still read into
 * buffers that wait for the garbage collector, so only this much is read before the connection is cut.
 */
const FLOOD_LINGER_BYTES = 256 * 1024;
const REQUIRED_HEADERS = ["x-github-event", "x-github-delivery", "x-hub-signature-256"] as const;

const ENV: Record<keyof WebhookBodyLimits, string> = {
  maxBytes: "WEBHOOK_MAX_BODY_BYTES",
  timeoutMs: "WEBHOOK_BODY_TIMEOUT_MS",
  maxBufferedBytes: "WEBHOOK_MAX_BUFFERED_BYTES",
  reservedBytes: "WEBHOOK_RESERVED_BYTES",
  smallBodyBytes: "WEBHOOK_SMALL_BODY_BYTES",
  maxPeerBufferedBytes: "WEBHOOK_MAX_PEER_BUFFERED_BYTES",
  graceMs: "WEBHOOK_BODY_GRACE_MS",
  maxIncompleteBodies: "WEBHOOK_MAX_INCOMPLETE_BODIES",
  maxPeerIncompleteBodies: "WEBHOOK_MAX_PEER_INCOMPLETE_BODIES",
  minBytesPerSecond: "WEBHOOK_MIN_BODY_BYTES_PER_SECOND",
};

/** The limits from the environment, each a positive integer, else the default; a wrong value stops the app saying which. */
export function readWebhookBodyLimits(env: NodeJS.ProcessEnv = process.env): WebhookBodyLimits {
  const limits = { ...DEFAULT_WEBHOOK_BODY_LIMITS };
  for (const key of Object.keys(ENV) as Array<keyof WebhookBodyLimits>) {
    const raw = env[ENV[key]];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`${ENV[key]}: expected a positive whole number, got ${JSON.stringify(raw)}`);
    limits[key] = value;
  }
  // A body is charged its bytes and its connection's MIN_CHARGE: the largest must fit with it.
  const largest = limits.maxBytes + MIN_CHARGE;
  const shared = limits.maxBufferedBytes - limits.reservedBytes;
  if (shared < largest) {
    throw new Error(
      `${ENV.reservedBytes} (${limits.reservedBytes}) leaves ${shared} bytes of ${ENV.maxBufferedBytes} (${limits.maxBufferedBytes}) ` +
        `for large bodies, less than one body of ${ENV.maxBytes} (${limits.maxBytes}) and its connection (${MIN_CHARGE}); raise ` +
        `${ENV.maxBufferedBytes} or lower the others`,
    );
  }
  if (limits.maxPeerBufferedBytes < largest) {
    throw new Error(
      `${ENV.maxPeerBufferedBytes} (${limits.maxPeerBufferedBytes}) must hold at least one body of ${ENV.maxBytes} ` +
        `(${limits.maxBytes}) and its connection (${MIN_CHARGE})`,
    );
  }
  if (limits.maxPeerIncompleteBodies > limits.maxIncompleteBodies) {
    throw new Error(
      `${ENV.maxPeerIncompleteBodies} (${limits.maxPeerIncompleteBodies}) must be at most ${ENV.maxIncompleteBodies} ` +
        `(${limits.maxIncompleteBodies})`,
    );
  }
  if (limits.smallBodyBytes + MIN_CHARGE > limits.reservedBytes) {
    throw new Error(
      `${ENV.smallBodyBytes} (${limits.smallBodyBytes}) and its connection (${MIN_CHARGE}) must fit in ${ENV.reservedBytes} ` +
        `(${limits.reservedBytes})`,
    );
  }
  return limits;
}

type Middleware = (request: IncomingMessage, response: ServerResponse, next?: () => void) => Promise<unknown>;

interface GuardLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface BodyGuardOptions extends WebhookBodyLimits {
  path: string;
  log: GuardLog;
  /**
   * The app answered a delivery with a status another attempt may not get (5xx, 408): GitHub never
   * sends it again by itself, so the app asks it to (bot/store/redeliver-after-refusal.ts).
   */
  onRetryableAnswer?: (status: number) => void;
  now?: () => number;
  /** The budget to account bodies in (tests read its usage); a new one by default. */
  budget?: WebhookBodyBudget;
}

/** Puts the guard in front of the webhook middleware Probot's server asks the app for. */
export function guardWebhookBodies(app: Probot, limits: WebhookBodyLimits, onRetryableAnswer?: (status: number) => void): void {
  const createMiddleware = app.getNodeMiddleware.bind(app);
  app.getNodeMiddleware = async (options) => {
    const middleware = (await createMiddleware(options)) as Middleware;
    const guard = createBodyGuard(middleware, {
      ...limits,
      path: options?.path ?? app.webhookPath,
      log: app.log,
      ...(onRetryableAnswer ? { onRetryableAnswer } : {}),
    });
    return guard as Awaited<ReturnType<Probot["getNodeMiddleware"]>>;
  };
}

export function createBodyGuard(middleware: Middleware, options: BodyGuardOptions): Middleware {
  const budget = options.budget ?? new WebhookBodyBudget(options, options.now);
  return async (request, response, next) => {
    const path = (request.url ?? "/").split("?", 1)[0];
    const hasBody = request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0;
    if (path !== options.path || request.method !== "POST" || !hasBody) return await middleware(request, response, next);
    const peer = request.socket.remoteAddress ?? "unknown";

    const refuse = (status: number, message: string, read: number): true => {
      const lingerBytes = status === 503 ? FLOOD_LINGER_BYTES : LINGER_BYTES;
      options.log.warn(
        { status, bytesRead: read, limit: options.maxBytes, path, peer },
        `webhook request refused with ${status} after reading ${read} bytes: ${message}`,
      );
      // No `connection: close`: Node would close at once with the body still arriving, and the reset can
      // reach the client before the answer does. The connection is cut below instead, once it lingered.
      if (!response.headersSent) response.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
      // Once the answer is out, the app's side of the connection is closed (FIN): the client learns the
      // answer is all it gets, and nothing it already received is lost.
      response.end(`${message}\n`, () => request.socket.end());
      // What still arrives is thrown away, up to a bound; past it the app stops reading, so the client's
      // writes stall instead of the connection being reset: a reset arriving before the client read the
      // answer made its kernel drop the answer (seen under load: no status at all instead of 413).
      // The connection is cut when the linger is over.
      let discarded = 0;
      request.removeAllListeners("data");
      request.on("data", (chunk: Buffer) => {
        discarded += chunk.length;
        if (discarded > lingerBytes) request.pause();
      });
      request.resume();
      setTimeout(() => request.socket.destroy(), LINGER_MS).unref();
      return true;
    };

    const declared = Number(request.headers["content-length"] ?? Number.NaN);
    if (declared > options.maxBytes) return refuse(413, `body of ${declared} bytes is over the ${options.maxBytes}-byte limit`, 0);
    const missing = REQUIRED_HEADERS.filter((header) => request.headers[header] === undefined);
    if (missing.length > 0) return refuse(400, `required headers missing: ${missing.join(", ")}`, 0);
    if (options.onRetryableAnswer) {
      const report = options.onRetryableAnswer;
      response.once("finish", () => {
        if (response.statusCode >= 500 || response.statusCode === 408) report(response.statusCode);
      });
    }

    // Set once admitted: a later body that needs the room ends this one (503) through `cutOff`.
    let cutOff: () => void = () => undefined;
    const admission = budget.admit(peer, Number.isFinite(declared) ? declared : null, () => cutOff());
    if ("refused" in admission) return refuse(503, admission.refused, 0);
    const { held } = admission;
    try {
      const body = await readBody(request, held, budget, options, refuse, (cut) => {
        cutOff = cut;
      });
      if (!body) return true;
      // @octokit/webhooks' middleware takes a body already read from `rawBody` (with `body` set) instead of the stream.
      Object.assign(request, { body: {}, rawBody: body });
      return await middleware(request, response, next);
    } finally {
      // Held until answered: the body stays in memory while its signature is checked and its work stored.
      budget.release(held);
    }
  };
}

/** Reads the admitted body, or null once it was refused (over the limit, too slow, cut for another). */
async function readBody(
  request: IncomingMessage,
  held: HeldBody,
  budget: WebhookBodyBudget,
  options: BodyGuardOptions,
  refuse: (status: number, message: string, read: number) => true,
  onCut: (cut: () => void) => void,
): Promise<Buffer | null> {
  return await new Promise<Buffer | null>((resolve) => {
    const chunks: Buffer[] = [];
    let read = 0;
    let settled = false;
    const settle = (value: Buffer | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A refused body's bytes are let go at once, not when its connection is finally cut.
      chunks.length = 0;
      resolve(value);
    };
    const fail = (status: number, message: string): void => {
      if (settled) return;
      settle(null);
      refuse(status, message, read);
    };
    const timer = setTimeout(() => fail(408, `body not received within ${options.timeoutMs} ms`), options.timeoutMs);
    onCut(() =>
      fail(
        503,
        `cut after ${(options.now ?? Date.now)() - held.since} ms to make room for another delivery: too many webhook bodies are ` +
          `being read at once; try again`,
      ),
    );
    const declared = Number(request.headers["content-length"] ?? Number.NaN);
    const limit = Number.isFinite(declared) ? Math.min(options.maxBytes, declared) : options.maxBytes;
    request.on("data", (chunk: Buffer) => {
      if (settled) return;
      if (read + chunk.length > limit) {
        fail(
          413,
          limit < options.maxBytes
            ? `body is longer than its content-length of ${limit} bytes`
            : `body is over the ${options.maxBytes}-byte limit`,
        );
        return;
      }
      // Charged before it is kept: what bodies hold never exceeds the budget.
      if (!budget.charge(held, chunk.length)) {
        fail(503, `cut after ${read} bytes: ${chunk.length} more do not fit: too many webhook bodies are being read at once; try again`);
        return;
      }
      read += chunk.length;
      chunks.push(chunk);
    });
    request.on("end", () => {
      held.complete = true;
      if (!settled) settle(Buffer.concat(chunks));
    });
    request.on("error", () => settle(null));
    request.on("close", () => settle(null));
  });
}
