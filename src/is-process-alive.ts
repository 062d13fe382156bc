import { readFileSync } from "node:fs";

/**
 * Whether a process with this pid exists on this host (EPERM: it exists but belongs to someone else). A zombie (it
 * died and its parent has not reaped it yet: an app SIGKILLed with its npm) is dead, though kill(pid, 0) still
 * succeeds on it: what it held (a data folder's lock) is free.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

/** Linux's /proc/<pid>/stat: "pid (name) S …", the state after the name's closing parenthesis. Elsewhere: never. */
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  return stat
    .slice(stat.lastIndexOf(")") + 1)
    .trim()
    .startsWith("Z");
}
