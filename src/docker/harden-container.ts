import type Dockerode from "dockerode";
import type { DockerSettings } from "../config/docker-settings-schema.js";

/**
 * The security settings of an engine container, apart from its limits. It cannot gain privileges
 * (no privileged mode, no-new-privileges) and starts with no Linux capability at all: an inference
 * engine serves HTTP on an unprivileged port and reads its model, which needs none, and without them
 * root in the container cannot read or chown files it does not own, send raw packets on the
 * network, or create device nodes (Docker's defaults allow all of that). The config adds back what
 * an image truly needs (`docker.capAdd`). Its IPC namespace is private unless the config says host
 * (vLLM's docs suggest --ipc=host, which shares the runner's System V IPC and /dev/shm with the
 * engine). Its log is capped on disk: speedgate follows it live through the API, so rotation loses
 * nothing of the tail, and an engine that prints without end cannot fill the runner's disk.
 */
export function hardenContainer(
  docker: DockerSettings,
): Pick<Dockerode.HostConfig, "Privileged" | "SecurityOpt" | "CapDrop" | "CapAdd" | "IpcMode" | "LogConfig"> {
  return {
    Privileged: false,
    SecurityOpt: ["no-new-privileges"],
    CapDrop: ["ALL"],
    CapAdd: docker.capAdd.map((name) => name.replace(/^CAP_/, "")),
    IpcMode: docker.ipc,
    LogConfig: { Type: "json-file", Config: { "max-size": docker.logMaxSize, "max-file": String(docker.logMaxFiles) } },
  };
}
