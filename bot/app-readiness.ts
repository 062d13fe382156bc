import type { IncomingMessage, ServerResponse } from "node:http";
import type { Probot } from "probot";

/*
 * The app listens before its database is open: opening and migrating the embedded PGlite took 45 s
 * on a loaded machine, and until the port answered nothing could tell a slow start from a dead one.
 * Now GET /ping answers at once (the process serves HTTP), GET /ready says "starting" with 503 until
 * the database is open and migrated and the app takes deliveries, and a delivery meanwhile gets 503
 * without being read: GitHub records it as failed, and the app asks for it again once it is ready
 * (bot/store/redeliver-on-start.ts).
 */

export const READY_PATH = "/ready";

export type ReadinessState = "starting" | "ready" | "failed";

export class AppReadiness {
  #state: ReadinessState = "starting";
  readonly #startedAt = Date.now();

  get state(): ReadinessState {
    return this.#state;
  }

  /** Seconds since the process began starting, for the log line that says it is ready. */
  secondsSinceStart(): number {
    return (Date.now() - this.#startedAt) / 1000;
  }

  markReady(): void {
    this.#state = "ready";
  }

  markFailed(): void {
    this.#state = "failed";
  }
}

const answer = (response: ServerResponse, status: number, body: Record<string, string>): void => {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...(status === 503 ? { "retry-after": "5" } : {}) });
  response.end(`${JSON.stringify(body)}\n`);
};

/** GET /ready: 200 {"status":"ready"} once deliveries are taken, 503 {"status":"starting"} (or "failed") before. */
export function serveReadiness(readiness: AppReadiness): (request: IncomingMessage, response: ServerResponse) => boolean {
  return (request, response) => {
    if (request.url?.split("?")[0] !== READY_PATH || (request.method !== "GET" && request.method !== "HEAD")) return false;
    const { state } = readiness;
    answer(response, state === "ready" ? 200 : 503, { status: state });
    return true;
  };
}

type Middleware = (request: IncomingMessage, response: ServerResponse, next?: (error?: Error) => void) => boolean | void | Promise<boolean | void>;

/**
 * Deliveries before the store is open are answered 503 "starting" and never read, so none is
 * acknowledged that could not be stored. Wraps Probot's webhook middleware like the body guard does.
 */
export function holdDeliveriesUntilReady(app: Probot, readiness: AppReadiness): void {
  const createMiddleware = app.getNodeMiddleware.bind(app);
  app.getNodeMiddleware = async (options) => {
    const middleware: Middleware = await createMiddleware(options);
    const path = options?.path ?? app.webhookPath;
    const held: Middleware = async (request, response, next) => {
      if (readiness.state !== "ready" && request.method === "POST" && request.url?.split("?")[0] === path) {
        answer(response, 503, { status: readiness.state, message: "the app's database is not open yet; GitHub's delivery is asked for again once it is" });
        return true;
      }
      return await middleware(request, response, next);
    };
    return held as Awaited<ReturnType<Probot["getNodeMiddleware"]>>;
  };
}
