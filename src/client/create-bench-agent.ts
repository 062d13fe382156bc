import { Agent, buildConnector } from "undici";
import { stampReads } from "./stamp-socket-reads.js";

/** Agents whose every socket is stamped on read, so a request's arrival times may come from the stamp. */
const stampingAgents = new WeakSet<object>();

/**
 * One connection per in-flight stream: no pipelining (a long stream would block the requests queued
 * behind it) and no cap on connections, so 256+ concurrent streams never wait for a socket. undici's
 * header and body timeouts are off because the client applies its own per-request deadline, which
 * must not fire merely because a reasoning model is quiet for five minutes between chunks. Each socket
 * is stamped as it is read (see stamp-socket-reads.ts).
 */
export function createBenchAgent(): Agent {
  const connectSocket = buildConnector({ timeout: 10_000, noDelay: true });
  const agent = new Agent({
    connections: null,
    pipelining: 1,
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: 30_000,
    connect: (options, callback) =>
      connectSocket(options, (error, socket) => {
        if (socket) stampReads(socket);
        if (error) callback(error, null);
        else callback(null, socket);
      }),
  });
  stampingAgents.add(agent);
  return agent;
}

/** True when every socket of this dispatcher updates the read stamp. */
export function stampsReads(dispatcher: object): boolean {
  return stampingAgents.has(dispatcher);
}

let shared: Agent | null = null;

/** The process-wide agent that requests use when the caller passes none. */
export function getSharedBenchAgent(): Agent {
  shared ??= createBenchAgent();
  return shared;
}
