import { createServer } from "node:net";

/*
 * Ports for engines that a test starts on a port of its choosing. The OS's own pick (listen on 0) is
 * not good enough here: the port is closed again before the engine binds it, and every in-process
 * engine, client socket and server of the other test files draws from the same ephemeral range
 * (32768-60999 on Linux), so under load another file's engine took the port in between and answered
 * the health check for an engine that had failed to bind. These ports lie below that range, where
 * nothing is handed out by the OS, in a block of their own for each Vitest worker, from a random
 * start so that two suites on one machine seldom meet.
 */
const FIRST_PORT = 20_000;
const BLOCK_SIZE = 1_500;
const BLOCKS = 8;

const block = Number(process.env.VITEST_POOL_ID ?? 0) % BLOCKS;
let next = Math.floor(Math.random() * BLOCK_SIZE);

async function isFree(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A loopback port that is free now, below the ephemeral range, never handed out twice by this process. */
export async function getFreePort(): Promise<number> {
  for (let tries = 0; tries < BLOCK_SIZE; tries++) {
    const port = FIRST_PORT + block * BLOCK_SIZE + (next++ % BLOCK_SIZE);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free loopback port in ${FIRST_PORT + block * BLOCK_SIZE}-${FIRST_PORT + (block + 1) * BLOCK_SIZE - 1}`);
}
