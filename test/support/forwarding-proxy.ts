import { type Server, type Socket, connect, createServer } from "node:net";

export type SocketAddress = { path: string } | { host: string; port: number };

/**
 * Forwards connections to a server until cut: cutting drops every open connection and refuses new
 * ones, as a server that went away does; `start()` again accepts on the same address, as the server
 * does once it is back. Tests make a shared server (the Docker daemon, PostgreSQL) go away this way
 * without disturbing other tests that use it.
 */
export class ForwardingProxy {
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;
  /** The TCP port it listens on, once started (when not listening on a path). */
  port = 0;

  constructor(
    private readonly target: SocketAddress,
    private readonly listenPath: string | null = null,
  ) {}

  async start(): Promise<void> {
    if (this.#server) return;
    const server = createServer((client) => {
      const upstream = connect(this.target);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.once("close", () => this.#sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      if (this.listenPath) server.listen(this.listenPath, () => resolve());
      else server.listen(this.port, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    if (address && typeof address === "object") this.port = address.port;
    this.#server = server;
  }

  /** The server goes away: open connections drop, new ones are refused. */
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
