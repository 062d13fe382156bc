import type Dockerode from "dockerode";
import type { DockerSettings } from "../config/docker-settings-schema.js";
import { parseDockerSize } from "./parse-docker-size.js";

/**
 * What one engine, and the build that runs the patch's code, may take of the Docker host, in the
 * units of the Engine API. Both engines of a round get the same, so the limits never favour one.
 */
export interface ResourceLimits {
  /** Bytes of memory, swap included (no swap); null for no limit. */
  memoryBytes: number | null;
  /** Bytes of /dev/shm. */
  shmBytes: number;
  /** Tasks (processes and threads). */
  pidsLimit: number;
  /** CPUs in billionths; null for all of them. */
  nanoCpus: number | null;
  ulimits: Array<{ Name: string; Soft: number; Hard: number }>;
  /** Bytes of the container's writable layer; null for no limit. */
  diskBytes: number | null;
}

/** SGLang's docs run its container with 32 GiB of /dev/shm, vLLM's with 10 GiB; PyTorch and NCCL share tensors through it. */
const SHM_CEILING_BYTES = 16 * 1024 ** 3;

/** The memory limit in bytes: a size, a share of the host's memory, or none. */
export function memoryLimitBytes(memory: string, hostMemoryBytes: number | null): number | null {
  if (memory.toLowerCase() === "unlimited") return null;
  const share = /^(\d+(?:\.\d+)?)%$/.exec(memory);
  if (!share) return parseDockerSize(memory);
  // A daemon that does not say how much memory it has gets no share of it, rather than a guess.
  if (!hostMemoryBytes) return null;
  return Math.floor((hostMemoryBytes * Number(share[1])) / 100);
}

export function resolveResourceLimits(docker: DockerSettings, hostMemoryBytes: number | null): ResourceLimits {
  const memoryBytes = memoryLimitBytes(docker.memory, hostMemoryBytes);
  // Shared memory is charged to the container's memory: past half of it, /dev/shm could starve the engine itself.
  const shmBytes = docker.shmSize
    ? parseDockerSize(docker.shmSize)
    : Math.min(SHM_CEILING_BYTES, memoryBytes === null ? SHM_CEILING_BYTES : Math.floor(memoryBytes / 2));
  return {
    memoryBytes,
    shmBytes,
    pidsLimit: docker.pidsLimit,
    nanoCpus: docker.cpus === undefined ? null : Math.round(docker.cpus * 1e9),
    ulimits: docker.ulimits.map((limit) => ({ Name: limit.name, Soft: limit.soft, Hard: limit.hard })),
    diskBytes: docker.diskSize.toLowerCase() === "unlimited" ? null : parseDockerSize(docker.diskSize),
  };
}

/** The host's memory as the daemon reports it (docker info MemTotal), or null when it does not. */
export async function readHostMemory(docker: Dockerode): Promise<number | null> {
  const info = (await docker.info()) as { MemTotal?: unknown };
  return typeof info.MemTotal === "number" && info.MemTotal > 0 ? info.MemTotal : null;
}

/** The limits as a container's HostConfig takes them. */
export function containerResourceLimits(
  limits: ResourceLimits,
): Pick<Dockerode.HostConfig, "Memory" | "MemorySwap" | "ShmSize" | "PidsLimit" | "NanoCpus" | "Ulimits" | "StorageOpt"> {
  return {
    ShmSize: limits.shmBytes,
    PidsLimit: limits.pidsLimit,
    Ulimits: limits.ulimits,
    ...(limits.memoryBytes !== null ? { Memory: limits.memoryBytes, MemorySwap: limits.memoryBytes } : {}),
    ...(limits.nanoCpus !== null ? { NanoCpus: limits.nanoCpus } : {}),
    // The daemon reads the size as go-units does: plain digits are bytes.
    ...(limits.diskBytes !== null ? { StorageOpt: { size: String(limits.diskBytes) } } : {}),
  };
}

/** CFS period the build's CPU quota is expressed in (the Engine API's default, 100 ms). */
const CPU_PERIOD_US = 100_000;

/**
 * The same limits as the build API's query parameters take them. The build API has no pids limit;
 * the memory limit bounds a fork bomb there.
 */
export function buildResourceLimits(limits: ResourceLimits): Record<string, number | string> {
  return {
    shmsize: limits.shmBytes,
    ulimits: JSON.stringify(limits.ulimits),
    ...(limits.memoryBytes !== null ? { memory: limits.memoryBytes, memswap: limits.memoryBytes } : {}),
    ...(limits.nanoCpus !== null ? { cpuperiod: CPU_PERIOD_US, cpuquota: Math.round((limits.nanoCpus / 1e9) * CPU_PERIOD_US) } : {}),
  };
}
