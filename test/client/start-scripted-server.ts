import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { Socket } from "node:net";

export interface ScriptedServer {
  url: string;
  /** Bodies and headers of the requests received, in order. */
  received: Array<{ path: string; body: string; headers: IncomingMessage["headers"] }>;
  close(): Promise<void>;
}

/** A loopback HTTP server whose answer a test writes by hand, for what a well-behaved engine never does. */
export async function startScriptedServer(
  answer: (req: IncomingMessage, res: ServerResponse, socket: Socket) => void,
): Promise<ScriptedServer> {
  const received: ScriptedServer["received"] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: Buffer.concat(parts).toString("utf8"), headers: req.headers });
      answer(req, res, req.socket);
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
