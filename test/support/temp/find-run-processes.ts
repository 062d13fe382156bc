import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import { readProcStat } from "../../../src/engine/process-group.js";

/** A process the test run started that is still running. */
export interface RunProcess {
  pid: number;
  command: string;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return null;
  }
}

/**
 * The processes still running that this test run started, wherever they went (reparented to init,
 * in a session or PID namespace of their own): every worker, engine and CLI process of the run gets a
 * TMPDIR under the run's temporary root (the process runtime passes TMPDIR on to engines), or works in
 * a folder under it. vitest's own workers, which end with the run, are left out, and so are zombies.
 */
export function findRunProcesses(runRoot: string): RunProcess[] {
  const inRoot = (path: string | null): boolean => path !== null && (path === runRoot || path.startsWith(`${runRoot}/`));
  const found: RunProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const environ = readText(`/proc/${name}/environ`);
    const tmpdir = environ
      ?.split("\0")
      .find((entry) => entry.startsWith("TMPDIR="))
      ?.slice("TMPDIR=".length);
    let cwd: string | null = null;
    try {
      cwd = readlinkSync(`/proc/${name}/cwd`);
    } catch {
      cwd = null;
    }
    if (!inRoot(tmpdir ?? null) && !inRoot(cwd)) continue;
    const command = (readText(`/proc/${name}/cmdline`) ?? "").split("\0").join(" ").trim();
    if (command.includes("vitest/dist/workers/")) continue;
    const stat = readProcStat(pid);
    if (!stat || stat.state === "Z" || stat.state === "X") continue;
    found.push({ pid, command: command.slice(0, 200) });
  }
  return found;
}
