import { hostname } from "node:os";
import type { EngineRole } from "../vocabulary/engine-failure.js";
import { readProcessStartTime } from "../read-process-start-time.js";

/** Every container, network and image speedgate makes carries these, so leftovers can be found and swept. */
export const LABEL_RUN_ID = "speedgate.run-id";
export const LABEL_ROLE = "speedgate.role";
/** The creating process (pid, its start time, host): a sweep can tell a live run from a killed one. */
export const LABEL_PID = "speedgate.pid";
export const LABEL_PID_START = "speedgate.pid-start";
export const LABEL_HOST = "speedgate.host";
export const LABEL_CREATED = "speedgate.created";

export type ResourceRole = EngineRole | "network";

export function makeResourceLabels(runId: string, role: ResourceRole): Record<string, string> {
  return {
    [LABEL_RUN_ID]: runId,
    [LABEL_ROLE]: role,
    [LABEL_PID]: String(process.pid),
    [LABEL_PID_START]: readProcessStartTime(process.pid) ?? "",
    [LABEL_HOST]: hostname(),
    [LABEL_CREATED]: new Date().toISOString(),
  };
}
