import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { substituteContainerCommand } from "../../src/docker/container-command.js";
import { createContainerSpec, gpuDeviceRequests } from "../../src/docker/create-container-spec.js";
import { parseDockerSize } from "../../src/docker/parse-docker-size.js";
import { buildResourceLimits, memoryLimitBytes, resolveResourceLimits } from "../../src/docker/resolve-resource-limits.js";

const dockerDefaults = parseRoundConfig({
  engine: "sglang",
  runtime: "docker",
  port: 30000,
  baseline: { image: "lmsysorg/sglang:v0.5.5" },
  bench: { prompts: "p.jsonl", maxTokens: 10, requestIntervalMs: 0, contextLimit: 100, tolerance: 0.1 },
  gate: { minRoundScore: 1 },
}).docker;

const GiB = 1024 ** 3;

describe("createContainerSpec", () => {
  it("uses the config's environment only, hardens the container and applies the resolved limits", () => {
    const spec = createContainerSpec({
      name: "speedgate-run-baseline",
      imageId: "sha256:abc",
      command: null,
      env: { HF_HOME: "/models" },
      labels: { "speedgate.run-id": "r1" },
      docker: dockerDefaults,
      limits: resolveResourceLimits(dockerDefaults, 100 * GiB),
      networkMode: "speedgate-r1",
    });
    expect(spec).not.toHaveProperty("Cmd");
    expect(spec.Env).toEqual(["HF_HOME=/models"]);
    expect(spec.HostConfig).toEqual({
      NetworkMode: "speedgate-r1",
      // Outside names are asked of the engine's own loopback: no query leaves an isolated container (CVE-2024-29018).
      Dns: ["127.0.0.1"],
      Privileged: false,
      SecurityOpt: ["no-new-privileges"],
      CapDrop: ["ALL"],
      CapAdd: [],
      IpcMode: "private",
      LogConfig: { Type: "json-file", Config: { "max-size": "64m", "max-file": "2" } },
      Memory: 90 * GiB,
      MemorySwap: 90 * GiB,
      ShmSize: 16 * GiB,
      PidsLimit: 16_384,
      Ulimits: [
        { Name: "memlock", Soft: -1, Hard: -1 },
        { Name: "stack", Soft: 67_108_864, Hard: 67_108_864 },
      ],
      StorageOpt: { size: String(100 * GiB) },
      AutoRemove: false,
    });
  });

  it("leaves the DNS alone on the host network, and the writable layer unlimited when the config says so", () => {
    const docker = { ...dockerDefaults, diskSize: "unlimited" };
    const spec = createContainerSpec({
      name: "n",
      imageId: "i",
      command: ["serve"],
      env: {},
      labels: {},
      docker,
      limits: resolveResourceLimits(docker, 100 * GiB),
      networkMode: "host",
    });
    expect(spec.HostConfig).not.toHaveProperty("Dns");
    expect(spec.HostConfig).not.toHaveProperty("StorageOpt");
    const sized = { ...dockerDefaults, diskSize: "20g" };
    expect(resolveResourceLimits(sized, 100 * GiB).diskBytes).toBe(20 * GiB);
  });

  it("takes what the config raises or adds: capabilities, host IPC, a bigger log, CPUs, no memory limit", () => {
    const docker = {
      ...dockerDefaults,
      capAdd: ["SYS_PTRACE", "CAP_IPC_LOCK"],
      ipc: "host" as const,
      logMaxSize: "1g",
      logMaxFiles: 5,
      memory: "unlimited",
      cpus: 7.5,
    };
    const spec = createContainerSpec({
      name: "n",
      imageId: "i",
      command: ["serve"],
      env: {},
      labels: {},
      docker,
      limits: resolveResourceLimits(docker, 100 * GiB),
      networkMode: "host",
    });
    expect(spec.HostConfig).toMatchObject({
      CapDrop: ["ALL"],
      CapAdd: ["SYS_PTRACE", "IPC_LOCK"],
      IpcMode: "host",
      LogConfig: { Config: { "max-size": "1g", "max-file": "5" } },
      NanoCpus: 7_500_000_000,
      ShmSize: 16 * GiB,
    });
    expect(spec.HostConfig).not.toHaveProperty("Memory");
  });

  it("asks for GPUs only when docker.gpus is set: all, a count, or device ids", () => {
    expect(gpuDeviceRequests(undefined)).toBeUndefined();
    expect(gpuDeviceRequests("all")).toEqual([{ Driver: "nvidia", Count: -1, Capabilities: [["gpu"]] }]);
    expect(gpuDeviceRequests(2)).toEqual([{ Driver: "nvidia", Count: 2, Capabilities: [["gpu"]] }]);
    expect(gpuDeviceRequests(["0", "3"])).toEqual([{ Driver: "nvidia", DeviceIDs: ["0", "3"], Capabilities: [["gpu"]] }]);
  });
});

describe("substituteContainerCommand", () => {
  it("fills the port, listen address, context limit and model", () => {
    expect(
      substituteContainerCommand(["serve", "--port", "{port}", "--host={host}", "--ctx", "{contextLimit}", "{model}"], {
        port: 30000,
        host: "0.0.0.0",
        contextLimit: 8192,
        model: "qwen",
      }),
    ).toEqual(["serve", "--port", "30000", "--host=0.0.0.0", "--ctx", "8192", "qwen"]);
  });
});

describe("resolveResourceLimits", () => {
  it("reads memory as a size, a share of the host or unlimited, and gives no share of an unknown host", () => {
    expect(memoryLimitBytes("64g", 100 * GiB)).toBe(64 * GiB);
    expect(memoryLimitBytes("90%", 100 * GiB)).toBe(90 * GiB);
    expect(memoryLimitBytes("unlimited", 100 * GiB)).toBeNull();
    expect(memoryLimitBytes("90%", null)).toBeNull();
  });

  it("sizes /dev/shm at 16 GiB or half the memory limit, whichever is smaller, unless the config says", () => {
    expect(resolveResourceLimits(dockerDefaults, 24 * GiB).shmBytes).toBe(Math.floor((24 * GiB * 0.9) / 2));
    expect(resolveResourceLimits(dockerDefaults, 1024 * GiB).shmBytes).toBe(16 * GiB);
    expect(resolveResourceLimits({ ...dockerDefaults, memory: "unlimited" }, 24 * GiB).shmBytes).toBe(16 * GiB);
    expect(resolveResourceLimits({ ...dockerDefaults, shmSize: "32g" }, 24 * GiB).shmBytes).toBe(32 * GiB);
  });

  it("gives the build the engine's memory, shared memory, CPUs and ulimits as the build API's parameters", () => {
    const limits = resolveResourceLimits({ ...dockerDefaults, cpus: 2.5, ulimits: [{ name: "nofile", soft: 1024, hard: 2048 }] }, 10 * GiB);
    expect(buildResourceLimits(limits)).toEqual({
      memory: 9 * GiB,
      memswap: 9 * GiB,
      shmsize: 4.5 * GiB,
      cpuperiod: 100_000,
      cpuquota: 250_000,
      ulimits: '[{"Name":"nofile","Soft":1024,"Hard":2048}]',
    });
  });
});

describe("parseDockerSize", () => {
  it("reads Docker's binary units", () => {
    expect(parseDockerSize("512m")).toBe(512 * 1024 ** 2);
    expect(parseDockerSize("1.5g")).toBe(1.5 * 1024 ** 3);
    expect(parseDockerSize("100")).toBe(100);
    expect(parseDockerSize("2t")).toBe(2 * 1024 ** 4);
    expect(() => parseDockerSize("lots")).toThrow(/expected a size/);
  });
});
