import { readFileSync } from "node:fs";

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
