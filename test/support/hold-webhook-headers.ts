import { type Socket, connect } from "node:net";

/*
 * The headers-only lock-out as an attacker plays it: connections to the webhook endpoint that send a
 * request's headers, declaring a body (`declaredBytes`), and then not one byte of it. Each is held
 * until `holdMs` (just past the app's grace, in the reported attack) and replaced by a new one; one the
 * app answers or cuts is replaced after `reopenMs`. So `declared.length` of them always press on the app.
 */

export interface HeldHeaders {
  /** Connections opened so far, and those the app answered or cut before the attacker let go. */
  opened: () => number;
  endedByApp: () => number;
  stop: () => void;
}

export interface HeldHeadersOptions {
  port: number;
  /** The source address of each connection (127.0.0.0/8 is all loopback on Linux). */
  localAddresses: readonly string[];
  /** What each connection declares (content-length); one connection per entry. */
  declaredBytes: readonly number[];
  headers: Record<string, string>;
  holdMs: number;
  reopenMs: number;
}

export function holdWebhookHeaders(options: HeldHeadersOptions): HeldHeaders {
  const live = new Set<Socket>();
  let opened = 0;
  let endedByApp = 0;
  let stopped = false;
  const headerText = Object.entries(options.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");

  const open = (index: number): void => {
    if (stopped) return;
    opened++;
    const declared = options.declaredBytes[index] ?? 1;
    const localAddress = options.localAddresses[index % options.localAddresses.length] ?? "127.0.0.1";
    const socket = connect({ host: "127.0.0.1", port: options.port, localAddress });
    live.add(socket);
    let over = false;
    // Let go just past the hold, unless the app ended it first.
    const holding = setTimeout(() => replace(false, 0), options.holdMs);
    holding.unref();
    const replace = (byApp: boolean, afterMs: number): void => {
      if (over) return;
      over = true;
      if (byApp) endedByApp++;
      clearTimeout(holding);
      live.delete(socket);
      socket.destroy();
      if (!stopped) setTimeout(() => open(index), afterMs).unref();
    };
    socket.on("connect", () => {
      socket.write(`POST /api/github/webhooks HTTP/1.1\r\nhost: 127.0.0.1\r\n${headerText}content-length: ${declared}\r\n\r\n`);
    });
    // Any answer, or the app closing, ends this one.
    socket.on("data", () => replace(true, options.reopenMs));
    socket.on("end", () => replace(true, options.reopenMs));
    socket.on("error", () => replace(true, options.reopenMs));
    socket.on("close", () => replace(true, options.reopenMs));
  };

  options.declaredBytes.forEach((_, index) => open(index));
  return {
    opened: () => opened,
    endedByApp: () => endedByApp,
    stop: () => {
      stopped = true;
      for (const socket of live) socket.destroy();
      live.clear();
    },
  };
}
