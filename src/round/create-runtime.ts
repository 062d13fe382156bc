import Dockerode from "dockerode";
import type { LoadedRound } from "../config/load-round-config.js";
import { DockerRuntime } from "../docker/docker-runtime.js";
import type { EngineRuntime, RuntimeContext } from "../engine/engine-runtime.js";
import { ProcessRuntime } from "../engine/process-runtime.js";

/** The runtime the round config asks for. */
export function createRuntime(round: LoadedRound, context: RuntimeContext): EngineRuntime {
  switch (round.config.runtime) {
    case "process":
      return new ProcessRuntime(round, context);
    case "docker":
      // The local daemon as the Docker CLI finds it (DOCKER_HOST, else /var/run/docker.sock).
      return new DockerRuntime(new Dockerode(), round, context);
  }
}
