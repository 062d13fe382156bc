import type Dockerode from "dockerode";
import type { DockerSettings } from "../config/docker-settings-schema.js";
import { engineContainerOptions } from "./engine-container-options.js";
import { hardenContainer } from "./harden-container.js";
import { type ResourceLimits, containerResourceLimits } from "./resolve-resource-limits.js";

export interface ContainerPlan {
  name: string;
  imageId: string;
  /** null runs the image's own CMD. */
  command: string[] | null;
  env: Record<string, string>;
  labels: Record<string, string>;
  docker: DockerSettings;
  /** Memory, shared memory, pids, CPUs and ulimits, resolved against the Docker host. */
  limits: ResourceLimits;
  /** "host", or the name of the run's internal network. */
  networkMode: string;
  /** baseline.cwd / candidate.cwd; unset keeps the image's WORKDIR. */
  workingDir?: string | undefined;
}

/** docker.gpus as the Engine API's device request: all of them, a count, or named devices. */
export function gpuDeviceRequests(gpus: DockerSettings["gpus"]): Dockerode.DeviceRequest[] | undefined {
  if (gpus === undefined) return undefined;
  const base = { Driver: "nvidia", Capabilities: [["gpu"]] };
  if (gpus === "all") return [{ ...base, Count: -1 }];
  if (typeof gpus === "number") return [{ ...base, Count: gpus }];
  return [{ ...base, DeviceIDs: gpus }];
}

/**
 * The create request of an engine container. The environment comes from the config alone (the
 * runner's variables and secrets never reach a patched engine), the container is hardened and
 * limited (harden-container.ts, resolve-resource-limits.ts), and nothing is published: the harness
 * reaches the engine on the host network or the run's network.
 */
export function createContainerSpec(plan: ContainerPlan): Dockerode.ContainerCreateOptions {
  const { docker } = plan;
  const deviceRequests = gpuDeviceRequests(docker.gpus);
  const configured = engineContainerOptions(docker, plan.workingDir);
  return {
    name: plan.name,
    Image: plan.imageId,
    ...(plan.command ? { Cmd: plan.command } : {}),
    Env: Object.entries(plan.env).map(([key, value]) => `${key}=${value}`),
    Labels: plan.labels,
    Tty: false,
    AttachStdin: false,
    OpenStdin: false,
    ...configured.config,
    HostConfig: {
      NetworkMode: plan.networkMode,
      // On the run's internal network the embedded DNS server answers; its upstream for outside names is
      // the engine's own loopback, so no query leaves the container (CVE-2024-29018, check-daemon-version.ts).
      ...(plan.networkMode !== "host" ? { Dns: ["127.0.0.1"] } : {}),
      ...hardenContainer(docker),
      ...containerResourceLimits(plan.limits),
      ...(deviceRequests ? { DeviceRequests: deviceRequests } : {}),
      AutoRemove: false,
      ...configured.hostConfig,
    },
  };
}
