import { readFileSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { readProcStat } from "../../src/engine/process-group.js";

/*
 * The memory of the process that serves a port, from /proc: which socket inode listens on the port
 * (/proc/net/tcp and tcp6), which process of a group holds it, and that process's resident set and
 * its peak (VmHWM). The peak can be reset (clear_refs 5), so a test reads the highest the process
 * reached during an attack, with no sampling and whatever the machine's load.
 */

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      // State 0A is LISTEN; the local address ends with the port in hex.
      if (!local || fields[3] !== "0A" || Number.parseInt(local.split(":")[1] ?? "", 16) !== port) continue;
      if (fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The pid, among the processes of `processGroup`, that holds the socket listening on `port`. */
export function findListeningProcess(port: number, processGroup: number): number {
  const sockets = new Set([...listeningInodes(port)].map((inode) => `socket:[${inode}]`));
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (readProcStat(pid)?.pgid !== processGroup) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (sockets.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return pid;
      } catch {
        // The descriptor closed meanwhile.
      }
    }
  }
  throw new Error(`no process of group ${processGroup} listens on port ${port}`);
}

export interface ProcessMemory {
  rssBytes: number;
  /** The highest resident set since the process started or since resetPeakMemory. */
  peakRssBytes: number;
}

export function readProcessMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rssBytes: kib("VmRSS"), peakRssBytes: kib("VmHWM") };
}

/** Sets the peak (VmHWM) back to the current resident set (Linux 4.0+). */
export function resetPeakMemory(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}
