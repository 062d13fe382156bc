import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { readProcStat } from "../../src/engine/process-group.js";

/**
 * Finds what an engine started, wherever it went: every process inherits its environment, so a
 * variable the round config gives the engine marks the engine, its workers, and anything they
 * started with setsid or in a PID namespace of their own, whose pids the test cannot see from
 * inside. Zombies do not count (they run nothing and hold nothing).
 */
export const MARK_VARIABLE = "SPEEDGATE_TEST_MARK";

export function newMark(): string {
  return `mark-${randomUUID()}`;
}

export function markedProcesses(mark: string): number[] {
  const needle = `${MARK_VARIABLE}=${mark}`;
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${name}/environ`, "latin1");
    } catch {
      continue;
    }
    if (!environ.split("\0").includes(needle)) continue;
    const stat = readProcStat(Number(name));
    if (stat && stat.state !== "Z" && stat.state !== "X") found.push(Number(name));
  }
  return found;
}
