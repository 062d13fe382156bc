import { createServer } from "node:net";
import type { EngineFailure, EngineRole } from "../vocabulary/engine-failure.js";
import { portInUseHint } from "../failure/failure-hints.js";

/** Whether nothing listens on the loopback port now; an engine already there would answer our health checks. */
export async function isPortFree(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The card's failure when the round's port is taken before an engine starts (the engine was never run). */
export function portTakenFailure(role: EngineRole, port: number, runtime: "process" | "docker"): EngineFailure {
  return {
    engine: role,
    stage: "startup",
    kind: "port_in_use",
    label: "port already in use",
    summary: `port ${port} on 127.0.0.1 is already in use before the ${role} engine started`,
    hint: portInUseHint(port, runtime),
    exitCode: null,
    signal: null,
    logTail: [],
  };
}
