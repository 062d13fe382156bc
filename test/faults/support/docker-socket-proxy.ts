import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ForwardingProxy } from "../../support/forwarding-proxy.js";

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
export class DockerSocketProxy extends ForwardingProxy {
  readonly path: string;

  constructor(target: string = defaultDockerSocket(), path = join(tmpdir(), `speedgate-docker-proxy-${randomUUID().slice(0, 8)}.sock`)) {
    super({ path: target }, path);
    this.path = path;
  }

  /** The daemon is back. */
  async restore(): Promise<void> {
    await this.start();
  }
}
