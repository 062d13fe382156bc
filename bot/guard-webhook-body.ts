import type { IncomingMessage, ServerResponse } from "node:http";
import type { Probot } from "probot";

/*
 * Probot's webhook middleware reads a delivery's whole body before it can check the signature, so
 * an unsigned 400 MiB POST was buffered in full (the app reached 3.8 GB), and a body sent one byte at
 * a time held its connection for Node's five-minute request timeout. This guard stands in front of
 * that middleware: it refuses a body over the limit from its content-length, and again while it
 * streams, before buffering past the limit; it refuses a delivery without GitHub's headers before
 * reading any of it; it bounds what all deliveries in flight may buffer together; and it ends a body
 * that has not arrived in time. The middleware then gets the bytes the guard read.
 */

export interface WebhookBodyLimits {
  /** Largest body accepted (bytes). GitHub caps deliveries at 25 MB and does not send larger ones. */
  maxBytes: number;
  /** Time from the request's arrival to the body's end (ms). */
  timeoutMs: number;
  /** What all deliveries being read may hold together (bytes); past it, 503. */
  maxBufferedBytes: number;
}

export const DEFAULT_WEBHOOK_BODY_LIMITS: WebhookBodyLimits = {
  maxBytes: 25 * 1024 * 1024,
  timeoutMs: 30_000,
  maxBufferedBytes: 100 * 1024 * 1024,
};

/**
 * After refusing, what is still read and thrown away (never kept) so that a client still sending sees
 * the answer rather than a reset; past either bound the connection is cut.
 */
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 2_000;
const REQUIRED_HEADERS = ["x-github-event", "x-github-delivery", "x-hub-signature-256"] as const;

const ENV: Record<keyof WebhookBodyLimits, string> = {
  maxBytes: "WEBHOOK_MAX_BODY_BYTES",
  timeoutMs: "WEBHOOK_BODY_TIMEOUT_MS",
  maxBufferedBytes: "WEBHOOK_MAX_BUFFERED_BYTES",
};

/** The limits from the environment, each a positive integer, else the default; a wrong value stops the app saying which. */
export function readWebhookBodyLimits(env: NodeJS.ProcessEnv = process.env): WebhookBodyLimits {
  const limits = { ...DEFAULT_WEBHOOK_BODY_LIMITS };
  for (const key of Object.keys(ENV) as Array<keyof WebhookBodyLimits>) {
    const raw = env[ENV[key]];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${ENV[key]}: expected a positive whole number, got ${JSON.stringify(raw)}`);
    limits[key] = value;
  }
  return limits;
}

type Middleware = (request: IncomingMessage, response: ServerResponse, next?: () => void) => Promise<unknown>;

interface GuardLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Puts the guard in front of the webhook middleware Probot's server asks the app for. */
export function guardWebhookBodies(app: Probot, limits: WebhookBodyLimits): void {
  const createMiddleware = app.getNodeMiddleware.bind(app);
  app.getNodeMiddleware = async (options) => {
    const middleware = (await createMiddleware(options)) as Middleware;
    return createBodyGuard(middleware, { ...limits, path: options?.path ?? app.webhookPath, log: app.log }) as Awaited<ReturnType<Probot["getNodeMiddleware"]>>;
  };
}

export function createBodyGuard(middleware: Middleware, options: WebhookBodyLimits & { path: string; log: GuardLog }): Middleware {
  let buffered = 0;
  return async (request, response, next) => {
    const path = (request.url ?? "/").split("?", 1)[0];
    const hasBody = request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? 0) > 0;
    if (path !== options.path || request.method !== "POST" || !hasBody) return await middleware(request, response, next);

    const refuse = (status: number, message: string, read: number): true => {
      options.log.warn({ status, bytesRead: read, limit: options.maxBytes, path }, `webhook request refused with ${status} after reading ${read} bytes: ${message}`);
      // No `connection: close`: Node would close at once with the body still arriving, and the reset can
      // reach the client before the answer does. The connection is cut below instead, once it lingered.
      if (!response.headersSent) response.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
      response.end(`${message}\n`);
      // Stop reading: what still arrives is thrown away, up to a bound, then the connection is cut.
      let discarded = 0;
      request.removeAllListeners("data");
      request.on("data", (chunk: Buffer) => {
        discarded += chunk.length;
        if (discarded > LINGER_BYTES) request.socket.destroy();
      });
      request.resume();
      setTimeout(() => request.socket.destroy(), LINGER_MS).unref();
      return true;
    };

    const declared = Number(request.headers["content-length"] ?? Number.NaN);
    if (declared > options.maxBytes) return refuse(413, `body of ${declared} bytes is over the ${options.maxBytes}-byte limit`, 0);
    const missing = REQUIRED_HEADERS.filter((header) => request.headers[header] === undefined);
    if (missing.length > 0) return refuse(400, `required headers missing: ${missing.join(", ")}`, 0);
    if (buffered + (Number.isFinite(declared) ? declared : 0) > options.maxBufferedBytes) {
      return refuse(503, "too many webhook bodies are being read at once; try again", 0);
    }

    const body = await new Promise<Buffer | null>((resolve) => {
      const chunks: Buffer[] = [];
      let read = 0;
      let settled = false;
      const settle = (value: Buffer | null): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        buffered -= read;
        resolve(value);
      };
      const timer = setTimeout(() => {
        settle(null);
        refuse(408, `body not received within ${options.timeoutMs} ms`, read);
      }, options.timeoutMs);
      request.on("data", (chunk: Buffer) => {
        if (settled) return;
        if (read + chunk.length > options.maxBytes) {
          settle(null);
          refuse(413, `body is over the ${options.maxBytes}-byte limit`, read);
          return;
        }
        if (buffered + chunk.length > options.maxBufferedBytes) {
          settle(null);
          refuse(503, "too many webhook bodies are being read at once; try again", read);
          return;
        }
        read += chunk.length;
        buffered += chunk.length;
        chunks.push(chunk);
      });
      request.on("end", () => settle(Buffer.concat(chunks)));
      request.on("error", () => settle(null));
      request.on("close", () => settle(null));
    });
    if (!body) return true;
    // @octokit/webhooks' middleware takes a body already read from `rawBody` (with `body` set) instead of the stream.
    Object.assign(request, { body: {}, rawBody: body });
    return await middleware(request, response, next);
  };
}
