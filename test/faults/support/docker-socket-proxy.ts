import { randomUUID } from "node:crypto";
import { type Server, type Socket, connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The daemon's socket as dockerode finds it by default. */
export function defaultDockerSocket(): string {
  const host = process.env.DOCKER_HOST;
  return host?.startsWith("unix://") ? host.slice("unix://".length) : "/var/run/docker.sock";
}

/**
 * A unix socket that forwards to the Docker daemon until cut: cutting drops every open connection
 * (a streaming wait, a log follow) and refuses new ones, as a daemon that went away does; restoring
 * accepts again, as the daemon does once it is back. Restarting the real daemon would disturb every
 * other test using it.
 */
export class DockerSocketProxy {
  readonly path = join(tmpdir(), `speedgate-docker-proxy-${randomUUID().slice(0, 8)}.sock`);
  readonly #sockets = new Set<Socket>();
  #server: Server | null = null;

  constructor(private readonly target: string = defaultDockerSocket()) {}

  async start(): Promise<void> {
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
      server.listen(this.path, () => resolve());
    });
    this.#server = server;
  }

  /** The daemon goes away: open connections drop, new ones fail (the socket file is removed). */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The daemon is back. */
  async restore(): Promise<void> {
    if (!this.#server) await this.start();
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
