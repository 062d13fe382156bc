import type { LoadedRound } from "../config/load-round-config.js";
import type { EngineRuntime, RuntimeContext } from "./engine-runtime.js";
import { ProcessRuntime } from "./process-runtime.js";

/** The runtime the round config asks for. */
export function createRuntime(round: LoadedRound, context: RuntimeContext): EngineRuntime {
  switch (round.config.runtime) {
    case "process":
      return new ProcessRuntime(round, context);
    case "docker":
      throw new Error("runtime docker is not available in this build");
  }
}
