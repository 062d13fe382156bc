import { type Server, type Socket, connect, createServer } from "node:net";

/**
 * A loopback TCP proxy in front of the database, so a test can make it go away (every connection cut,
 * new ones refused) and come back on the same port, as a server restart or a network partition does.
 */
export class TcpProxy {
  readonly #target: { host: string; port: number } | { path: string };
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;
  port = 0;

  constructor(target: { host: string; port: number } | { path: string }) {
    this.#target = target;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.#target);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on("close", () => this.#sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    if (address && typeof address === "object") this.port = address.port;
    this.#server = server;
  }

  /** The database goes away: open connections are reset and new ones refused until `start()` again. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
