import type { IncomingMessage, ServerResponse } from "node:http";
import type { Probot } from "probot";

/*
 * The app listens before its database is open: opening and migrating the embedded PGlite took 45 s
 * on a loaded machine, and until the port answered nothing could tell a slow start from a dead one.
 * Now GET /ping answers at once (the process serves HTTP), GET /ready says "starting" with 503 until
 * the database is open and migrated and the app takes deliveries. A delivery that arrives meanwhile is
 * held, unread, until the store is open (about 1.5 s for PGlite on an idle machine), then handled as
 * any other: GitHub does not send a delivery again by itself after a 5xx, so one answered 503 in the
 * first seconds after a start was late for no reason. The hold is bounded, in time (GitHub gives up
 * on a delivery after 10 s) and in count; past either the delivery
 * gets 503 without being read, GitHub records it as failed, and the app asks for it again once it is
 * ready (bot/store/redeliver-on-start.ts).
 */

export const READY_PATH = "/ready";

export type ReadinessState = "starting" | "ready" | "failed" | "stopping";

export class AppReadiness {
  #state: ReadinessState = "starting";
  readonly #startedAt = Date.now();
  readonly #settled: Promise<void>;
  #settle: () => void = () => undefined;

  constructor() {
    this.#settled = new Promise((resolve) => {
      this.#settle = resolve;
    });
  }

  get state(): ReadinessState {
    return this.#state;
  }

  /** Resolves once the app is ready or has failed to start. */
  settled(): Promise<void> {
    return this.#settled;
  }

  /** Seconds since the process began starting, for the log line that says it is ready. */
  secondsSinceStart(): number {
    return (Date.now() - this.#startedAt) / 1000;
  }

  /** The store is open; an app that began stopping meanwhile stays "stopping". */
  markReady(): void {
    if (this.#state === "stopping") return;
    this.#state = "ready";
    this.#settle();
  }

  markFailed(): void {
    if (this.#state === "stopping") return;
    this.#state = "failed";
    this.#settle();
  }

  /** SIGTERM: /ready says so, and a delivery still held for the store is answered 503 at once (GitHub keeps it as failed). */
  markStopping(): void {
    this.#state = "stopping";
    this.#settle();
  }
}

/** What a response's request logger (pino-http's, on `response.log`) writes a line with. */
type LogWrite = (object: unknown, ...rest: unknown[]) => void;

/**
 * pino-http logs every 5xx with an Error it makes up ("failed with status code 503") and its stack. A 503
 * the app answers on purpose (/ready while starting or stopping, a delivery that waited too long for the
 * store) is expected and says why in its body: its line is written without the made-up error. Only this
 * response's own logger is changed (pino-http gives each request one).
 */
export function logWithoutStack(response: ServerResponse): void {
  const log = (response as ServerResponse & { log?: Record<string, unknown> }).log;
  if (!log) return;
  for (const level of ["info", "warn", "error"]) {
    const write = log[level];
    if (typeof write !== "function") continue;
    const original = write as LogWrite;
    log[level] = function (this: unknown, object: unknown, ...rest: unknown[]): void {
      if (object !== null && typeof object === "object" && "err" in object) {
        const { err: _err, ...withoutError } = object as Record<string, unknown>;
        original.call(this, withoutError, ...rest);
        return;
      }
      original.call(this, object, ...rest);
    };
  }
}

const answer = (response: ServerResponse, status: number, body: Record<string, string>): void => {
  if (status === 503) logWithoutStack(response);
  response.writeHead(status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    ...(status === 503 ? { "retry-after": "5" } : {}),
  });
  response.end(`${JSON.stringify(body)}\n`);
};

/** GET /ready: 200 {"status":"ready"} once deliveries are taken, 503 {"status":"starting"} before (or "failed", or "stopping"). */
export function serveReadiness(readiness: AppReadiness): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    if (request.url?.split("?")[0] !== READY_PATH || (request.method !== "GET" && request.method !== "HEAD")) return false;
    const { state } = readiness;
    answer(response, state === "ready" ? 200 : 503, { status: state });
    return true;
  };
}

type Middleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next?: (error?: Error) => void,
) => boolean | void | Promise<boolean | void>;

/** How long a delivery waits for the store to open, and how many wait at once. */
export interface DeliveryHold {
  maxMs: number;
  maxHeld: number;
}

/**
 * 9 s: GitHub waits 10 s for an answer, and a delivery into a store that has just opened is stored in
 * milliseconds, so a second is left for that and the way back. What the hold covers is a restart over an
 * existing PGlite folder (0.7-0.8 s to open and migrate at load 18 on 2 cores; docs/bench-report.md) and a
 * PostgreSQL server's start. The first start over an empty folder runs PostgreSQL's initdb in WASM: 1.5 s
 * idle, 6.5 s at load 3.5, 33 s at load 18, past any hold GitHub waits for; the deliveries it refuses
 * meanwhile are asked for again once it is ready (bot/store/redeliver-on-start.ts). Should storing one take
 * the intake's full 5 s after a long hold, GitHub records it as failed although it is stored, and the
 * redelivery it then gets is de-duplicated by its work key. 64 at once: a start after an outage meets a
 * burst, but each held delivery is an open connection with its body unread in the socket.
 */
export const DEFAULT_DELIVERY_HOLD: DeliveryHold = { maxMs: 9_000, maxHeld: 64 };

/** SPEEDGATE_DELIVERY_HOLD_MS: how long a delivery arriving before the store is open waits for it, 0 to answer 503 at once. */
export function readDeliveryHold(env: NodeJS.ProcessEnv): DeliveryHold {
  const raw = env.SPEEDGATE_DELIVERY_HOLD_MS?.trim();
  if (!raw) return DEFAULT_DELIVERY_HOLD;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(
      `SPEEDGATE_DELIVERY_HOLD_MS: expected a whole number of milliseconds, 0 to answer 503 at once while the store opens, got ` +
        `${JSON.stringify(raw)}`,
    );
  return { ...DEFAULT_DELIVERY_HOLD, maxMs: value };
}

/** Resolves true once the app is ready, false when it failed or `maxMs` passed first. */
async function waitUntilReady(readiness: AppReadiness, maxMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
  });
  try {
    await Promise.race([readiness.settled(), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
  return readiness.state === "ready";
}

/**
 * Deliveries before the store is open wait for it, unread, within `hold`; one it does not open in
 * time for (or one past the count) is answered 503 "starting" and never read, so none is acknowledged
 * that could not be stored. Wraps Probot's webhook middleware like the body guard does.
 */
export function holdDeliveriesUntilReady(app: Probot, readiness: AppReadiness, hold: DeliveryHold = DEFAULT_DELIVERY_HOLD): void {
  const createMiddleware = app.getNodeMiddleware.bind(app);
  let held = 0;
  app.getNodeMiddleware = async (options) => {
    const middleware: Middleware = await createMiddleware(options);
    const path = options?.path ?? app.webhookPath;
    const refuse = (response: ServerResponse): boolean => {
      answer(response, 503, {
        status: readiness.state,
        message:
          readiness.state === "stopping"
            ? "the app is stopping; GitHub's delivery is asked for again once it has started again"
            : "the app's database is not open yet; GitHub's delivery is asked for again once it is",
      });
      return true;
    };
    const guarded: Middleware = async (request, response, next) => {
      if (readiness.state !== "ready" && request.method === "POST" && request.url?.split("?")[0] === path) {
        if (readiness.state !== "starting" || held >= hold.maxHeld || hold.maxMs === 0) return refuse(response);
        held++;
        let ready: boolean;
        try {
          ready = await waitUntilReady(readiness, hold.maxMs);
        } finally {
          held--;
        }
        if (!ready) return refuse(response);
      }
      return await middleware(request, response, next);
    };
    return guarded as Awaited<ReturnType<Probot["getNodeMiddleware"]>>;
  };
}
