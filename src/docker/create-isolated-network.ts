import { createHash } from "node:crypto";
import type Dockerode from "dockerode";
import { dockerSafeName } from "./docker-safe-name.js";
import { makeResourceLabels } from "./resource-labels.js";

/** What the host-side bridge of every isolated network is named after: the one firewall rule a GPU runner needs matches `sgb-+`. */
export const ISOLATED_BRIDGE_PREFIX = "sgb-";

/**
 * The host-side interface of a run's isolated network: ISOLATED_BRIDGE_PREFIX and a hash of the run
 * (Linux allows 15 characters). An internal network blocks traffic to the outside but not to the host:
 * the bridge has an address, so anything the runner serves on all interfaces is one connect() away
 * from the patched engine. A known name lets the runner drop new connections from these bridges with
 * one rule (docs/gpu-runner-checklist.md), whatever the run.
 */
export function isolatedBridgeName(runId: string): string {
  return `${ISOLATED_BRIDGE_PREFIX}${createHash("sha256").update(runId).digest("hex").slice(0, 11)}`;
}

/**
 * docker.network: isolated. A per-run bridge network created with Internal: true: the daemon
 * gives it no route to the outside (no masquerading, and its isolation rules drop traffic that
 * leaves the bridge), while the host, which owns the bridge's gateway address, still reaches each
 * container at its address on that network, which is what the engine's baseUrl is. The engine
 * must listen on that address, hence {host} = 0.0.0.0 in its command. The outside is cut by the
 * daemon's iptables rules: a daemon started with --iptables=false creates the network but cannot
 * enforce it. Returns the network's name.
 */
export async function createIsolatedNetwork(docker: Dockerode, runId: string): Promise<string> {
  const name = `speedgate-${dockerSafeName(runId)}`;
  try {
    await docker.createNetwork({
      Name: name,
      Driver: "bridge",
      Internal: true,
      CheckDuplicate: true,
      Options: { "com.docker.network.bridge.name": isolatedBridgeName(runId) },
      Labels: makeResourceLabels(runId, "network"),
    });
  } catch (error) {
    throw new Error(
      `docker: could not create the run's internal network ${name}: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  return name;
}
