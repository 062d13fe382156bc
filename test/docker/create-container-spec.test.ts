import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../src/config/load-round-config.js";
import { substituteContainerCommand } from "../../src/docker/container-command.js";
import { createContainerSpec, gpuDeviceRequests } from "../../src/docker/create-container-spec.js";
import { parseDockerSize } from "../../src/docker/parse-docker-size.js";

const dockerDefaults = parseRoundConfig({
  engine: "sglang",
  runtime: "docker",
  port: 30000,
  baseline: { image: "lmsysorg/sglang:v0.5.5" },
  bench: { prompts: "p.jsonl", maxTokens: 10, requestIntervalMs: 0, contextLimit: 100, tolerance: 0.1 },
  gate: { minRoundScore: 1 },
}).docker;

describe("createContainerSpec", () => {
  it("uses the config's environment only, drops privileges, sizes /dev/shm and sets the default ulimits", () => {
    const spec = createContainerSpec({
      name: "speedgate-run-baseline",
      imageId: "sha256:abc",
      command: null,
      env: { HF_HOME: "/models" },
      labels: { "speedgate.run-id": "r1" },
      docker: { ...dockerDefaults, memory: "64g", pidsLimit: 4096 },
      networkMode: "speedgate-r1",
    });
    expect(spec).not.toHaveProperty("Cmd");
    expect(spec.Env).toEqual(["HF_HOME=/models"]);
    expect(spec.HostConfig).toMatchObject({
      NetworkMode: "speedgate-r1",
      ShmSize: 16 * 1024 ** 3,
      Privileged: false,
      SecurityOpt: ["no-new-privileges"],
      Memory: 64 * 1024 ** 3,
      MemorySwap: 64 * 1024 ** 3,
      PidsLimit: 4096,
      Ulimits: [
        { Name: "memlock", Soft: -1, Hard: -1 },
        { Name: "stack", Soft: 67_108_864, Hard: 67_108_864 },
      ],
    });
    expect(spec.HostConfig).not.toHaveProperty("DeviceRequests");
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

describe("parseDockerSize", () => {
  it("reads Docker's binary units", () => {
    expect(parseDockerSize("512m")).toBe(512 * 1024 ** 2);
    expect(parseDockerSize("1.5g")).toBe(1.5 * 1024 ** 3);
    expect(parseDockerSize("100")).toBe(100);
    expect(() => parseDockerSize("lots")).toThrow(/expected a size/);
  });
});
