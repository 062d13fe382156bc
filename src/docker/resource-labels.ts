import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import type { EngineRole } from "../vocabulary/engine-failure.js";

/** Every container, network and image speedgate makes carries these, so leftovers can be found and swept. */
export const LABEL_RUN_ID = "speedgate.run-id";
export const LABEL_ROLE = "speedgate.role";
/** The creating process (pid, its start time, host): a sweep can tell a live run from a killed one. */
export const LABEL_PID = "speedgate.pid";
export const LABEL_PID_START = "speedgate.pid-start";
export const LABEL_HOST = "speedgate.host";
export const LABEL_CREATED = "speedgate.created";

export type ResourceRole = EngineRole | "network";

/**
 * The kernel's start time of a process (field 22 of /proc/<pid>/stat, in clock ticks since boot).
 * A pid alone can be reused by an unrelated process after a run is killed; pid plus start time cannot.
 */
export function readProcessStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses: count fields after the last ")".
    const afterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return afterName[19] ?? null;
  } catch {
    return null;
  }
}

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
