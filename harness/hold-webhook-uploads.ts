import { type ClientRequest, request } from "node:http";

/*
 * The lock-out of issue #24 point 1, as an attacker plays it: unsigned uploads to the webhook endpoint
 * that declare a large body, send all of it but the last bytes, and then hold the connection open. An
 * upload the app answers or cuts is opened again (after `reopenMs`, so the attack's own loop does not
 * take the machine), so `count` of them are always pressing on the app.
 */

export interface HeldUploads {
  /** Resolves once `count` uploads have each sent all they will send and are holding (or were answered). */
  inPlace: Promise<void>;
  /** Uploads opened so far, and the statuses the app answered them with. */
  opened: () => number;
  statuses: () => number[];
  stop: () => void;
}

export interface HoldOptions {
  port: number;
  count: number;
  /** What each declares (content-length). */
  declaredBytes: number;
  /** What each sends before holding: all but a byte by default. */
  sentBytes?: number;
  headers: Record<string, string>;
  reopenMs?: number;
}

export function holdWebhookUploads(options: HoldOptions): HeldUploads {
  const sent = options.sentBytes ?? options.declaredBytes - 1;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const live = new Set<ClientRequest>();
  const statuses: number[] = [];
  let opened = 0;
  let stopped = false;
  let settledFirst = 0;
  let resolveInPlace: () => void = () => undefined;
  const inPlace = new Promise<void>((resolve) => {
    resolveInPlace = resolve;
  });
  const firstRoundDone = (): void => {
    settledFirst++;
    if (settledFirst === options.count) resolveInPlace();
  };

  const open = (first: boolean): void => {
    if (stopped) return;
    opened++;
    let ended = false;
    let counted = !first;
    const countOnce = (): void => {
      if (counted) return;
      counted = true;
      firstRoundDone();
    };
    const client = request({
      host: "127.0.0.1",
      port: options.port,
      path: "/api/github/webhooks",
      method: "POST",
      headers: { ...options.headers, "content-length": String(options.declaredBytes) },
    });
    live.add(client);
    const end = (): void => {
      if (ended) return;
      ended = true;
      live.delete(client);
      countOnce();
      if (!stopped) setTimeout(() => open(false), options.reopenMs ?? 100).unref();
    };
    client.on("response", (response) => {
      statuses.push(response.statusCode ?? 0);
      response.resume();
      // The app answered: this upload is over whatever is still unsent.
      client.destroy();
      end();
    });
    client.on("error", end);
    client.on("close", end);
    let written = 0;
    const pump = (): void => {
      while (!ended && written < sent) {
        const piece = written + chunk.length <= sent ? chunk : chunk.subarray(0, sent - written);
        written += piece.length;
        if (!client.write(piece)) {
          client.once("drain", pump);
          return;
        }
      }
      // Everything but the last bytes is handed to the socket: the upload now holds.
      if (written >= sent) client.write("", () => countOnce());
    };
    pump();
  };

  for (let index = 0; index < options.count; index++) open(true);
  return {
    inPlace,
    opened: () => opened,
    statuses: () => [...statuses],
    stop: () => {
      stopped = true;
      for (const client of live) client.destroy();
      live.clear();
    },
  };
}
