import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { type Server, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBenchAgent, stampsReads } from "../../src/client/create-bench-agent.js";
import { arrivalTimeMs } from "../../src/client/stamp-socket-reads.js";
import { Agent } from "undici";

/** Keeps the event loop busy: work that undici would do between a read and the handler, made large. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning on purpose
  }
}

describe("read stamps on the bench agent's sockets", () => {
  let server: Server;
  let url = "";
  let writtenAt = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      writtenAt = performance.now();
      res.end('data: {"choices":[]}\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("times a body by the socket read that brought it, not by when undici handed it over", async () => {
    const agent = createBenchAgent();
    expect(stampsReads(agent)).toBe(true);
    // Work between the read and the handler, as undici's parsing is: 5 ms of it, listening first.
    const delayHandling = (message: unknown): void => {
      const { socket } = message as { socket: Socket };
      socket.prependListener("readable", () => busyFor(5));
    };
    subscribe("undici:client:connected", delayHandling);
    try {
      const seen = await new Promise<{ arrival: number; handled: number }>((resolve, reject) => {
        let first: { arrival: number; handled: number } | null = null;
        agent.dispatch(
          { origin: url, path: "/", method: "GET" },
          {
            onRequestStart() {
              // nothing to keep: the request is never aborted
            },
            onResponseData() {
              first ??= { arrival: arrivalTimeMs(), handled: performance.now() };
            },
            onResponseEnd() {
              if (first) resolve(first);
              else reject(new Error("no body"));
            },
            onResponseError(_controller, error) {
              reject(error);
            },
          },
        );
      });
      expect(seen.arrival).toBeGreaterThanOrEqual(writtenAt);
      expect(seen.handled - seen.arrival).toBeGreaterThanOrEqual(5);
    } finally {
      unsubscribe("undici:client:connected", delayHandling);
      await agent.close();
    }
  });

  it("does not vouch for another dispatcher's sockets", async () => {
    const other = new Agent();
    try {
      expect(stampsReads(other)).toBe(false);
    } finally {
      await other.close();
    }
  });
});
