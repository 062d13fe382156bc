import { createServer } from "node:net";
import { getFreePort } from "./get-free-port.js";

/** A TCP server on the runner's loopback that only counts who reached it: the service a patch's code must not reach. */
export async function countConnections(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.end();
  });
  const port = await getFreePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
