import { readProcStat } from "../../../src/engine/process-group.js";

/**
 * Whether a pid is a live process. A zombie counts as gone: an orphan's zombie waits for init to
 * reap it, which some container inits never do, yet it runs nothing and holds no port or GPU.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  const stat = readProcStat(pid);
  return stat !== null && stat.state !== "Z" && stat.state !== "X";
}
