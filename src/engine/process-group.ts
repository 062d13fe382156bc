import { readFileSync, readdirSync } from "node:fs";

/** State and process group of a pid from /proc (Linux), or null when it is gone or /proc is absent. */
export function readProcStat(pid: number): { state: string; pgid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may itself contain spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "?", pgid: Number(fields[2]) };
  } catch {
    return null;
  }
}

/**
 * Whether any live process of the group led by `pgid` remains. Zombies do not count: an orphaned
 * worker that exited waits for init to reap it, and some container inits never do.
 */
export function processGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  return pids.some((name) => {
    const stat = readProcStat(Number(name));
    return stat !== null && stat.pgid === pgid && stat.state !== "Z" && stat.state !== "X";
  });
}

export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Polls until the group is empty; false when it is still there at the deadline. */
export async function waitForProcessGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (!processGroupAlive(pgid)) return true;
    if (performance.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Groups to kill if speedgate itself exits without stopping them (an uncaught error, process.exit on
 * a second Ctrl-C): the last line of defence against engines left running.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackProcessGroup(pgid: number): () => void {
  liveGroups.add(pgid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const group of liveGroups) signalProcessGroup(group, "SIGKILL");
    });
  }
  return () => liveGroups.delete(pgid);
}
