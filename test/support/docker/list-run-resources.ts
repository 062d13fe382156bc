import type Dockerode from "dockerode";
import { LABEL_RUN_ID } from "../../../src/docker/resource-labels.js";

/** Containers and networks that still carry a run's label: what a finished run must not leave. */
export async function listRunResources(docker: Dockerode, runId: string): Promise<{ containers: string[]; networks: string[] }> {
  const filters = { label: [`${LABEL_RUN_ID}=${runId}`] };
  const containers = await docker.listContainers({ all: true, filters });
  const networks = await docker.listNetworks({ filters });
  return { containers: containers.map((info) => info.Id), networks: networks.map((info) => info.Name) };
}
