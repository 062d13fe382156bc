import { Agent } from "undici";

/**
 * One connection per in-flight stream: no pipelining (a long stream would block the requests queued
 * behind it) and no cap on connections, so 256+ concurrent streams never wait for a socket. undici's
 * header and body timeouts are off because the client applies its own per-request deadline, which
 * must not fire merely because a reasoning model is quiet for five minutes between chunks.
 */
export function createBenchAgent(): Agent {
  return new Agent({
    connections: null,
    pipelining: 1,
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: 30_000,
    connect: { timeout: 10_000, noDelay: true },
  });
}

let shared: Agent | null = null;

/** The process-wide agent that requests use when the caller passes none. */
export function getSharedBenchAgent(): Agent {
  shared ??= createBenchAgent();
  return shared;
}
