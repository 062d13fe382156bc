import type Dockerode from "dockerode";
import { LABEL_PID, LABEL_RUN_ID } from "../../../src/docker/resource-labels.js";
import { isRunGone } from "../../../src/docker/sweep-resources.js";

/** A Docker resource speedgate made during the test run whose maker is gone: a leak. */
export interface DockerLeftover {
  kind: "container" | "network" | "image" | "volume";
  id: string;
  name: string;
  remove(): Promise<void>;
}

/**
 * What speedgate's labels mark as made by a process, made since `sinceMs`, whose creating process has
 * ended: left behind by the run's tests, since each test that creates something must remove it. A
 * concurrent run's resources are left out while its process lives. Images shared on purpose between
 * runs (a baseline built from a context, cached for the next round) name no process, and are left to
 * the tests that make them: a concurrent run makes them too, so they cannot be told apart here.
 */
export async function findRunLeftovers(docker: Dockerode, sinceMs: number): Promise<DockerLeftover[]> {
  const now = Date.now();
  const since = Math.floor(sinceMs / 1000) - 1;
  const ours = (labels: Record<string, string> | undefined | null, createdS: number): boolean =>
    createdS >= since && labels?.[LABEL_RUN_ID] !== undefined && labels[LABEL_PID] !== undefined && isRunGone(labels, now, 0);
  const filters = { label: [LABEL_RUN_ID] };
  const [containers, networks, images, volumes] = await Promise.all([
    docker.listContainers({ all: true, filters }),
    docker.listNetworks({ filters }),
    docker.listImages({ filters }),
    docker.listVolumes({ filters }),
  ]);
  return [
    ...containers
      .filter((info) => ours(info.Labels, info.Created))
      .map((info) => ({
        kind: "container" as const,
        id: info.Id,
        name: info.Names[0] ?? info.Id,
        remove: () => docker.getContainer(info.Id).remove({ force: true, v: true }),
      })),
    ...networks
      .filter((info) => ours(info.Labels, Date.parse(info.Created) / 1000))
      .map((info) => ({ kind: "network" as const, id: info.Id, name: info.Name, remove: () => docker.getNetwork(info.Id).remove() })),
    ...images
      .filter((info) => ours(info.Labels, info.Created))
      .map((info) => ({
        kind: "image" as const,
        id: info.Id,
        name: info.RepoTags?.[0] ?? info.Id,
        remove: () => docker.getImage(info.Id).remove({ force: true }),
      })),
    ...(volumes.Volumes ?? [])
      .filter((info) => ours(info.Labels, Date.parse((info as { CreatedAt?: string }).CreatedAt ?? "") / 1000))
      .map((info) => ({
        kind: "volume" as const,
        id: info.Name,
        name: info.Name,
        remove: () => docker.getVolume(info.Name).remove({ force: true }),
      })),
  ].map((leftover) => ({ ...leftover, remove: async () => void (await leftover.remove()) }));
}
