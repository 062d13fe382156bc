import { readFile, readdir, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { removeWorktree } from "../git/git-worktree.js";
import { isProcessAlive } from "../is-process-alive.js";
import type { Logger } from "../logger.js";
import { readProcessStartTime } from "../read-process-start-time.js";
import { processGroupAlive, signalProcessGroup, waitForProcessGroupExit } from "./process-group.js";
import { type RoundLeftovers, roundRecordsDir } from "./record-round-leftovers.js";

export interface LeftRoundsSweep {
  /** Rounds whose process was gone and whose leftovers were removed. */
  rounds: number;
  worktrees: number;
  processGroups: number;
  /** Rounds still running (on this host), left alone. */
  live: number;
}

function isRoundLeftovers(value: unknown): value is RoundLeftovers {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.version === 1 &&
    typeof record.pid === "number" &&
    typeof record.host === "string" &&
    Array.isArray(record.worktrees) &&
    record.worktrees.every((dir) => typeof dir === "string") &&
    Array.isArray(record.processGroups) &&
    record.processGroups.every(
      (group) => typeof group === "object" && group !== null && typeof (group as { pgid?: unknown }).pgid === "number",
    )
  );
}

/** Whether the round that wrote the record still runs: its pid alive with the same start time, on this host. */
function roundRuns(record: RoundLeftovers): boolean {
  if (!isProcessAlive(record.pid)) return false;
  return record.pidStart === null || readProcessStartTime(record.pid) === record.pidStart;
}

/**
 * Removes what base/head process rounds in this repository left when they were killed (see
 * record-round-leftovers.ts): for each record whose round's process is gone, it kills the engines'
 * process groups still alive, removes the worktrees (files and registration) and the temporary
 * folder, then the record. A group whose leader's pid now belongs to a process started later is not
 * the engine's and is left alone. Records written on another host are left alone too: their
 * processes cannot be seen from here.
 */
export async function sweepLeftRounds(repoDir: string, logger: Logger): Promise<LeftRoundsSweep> {
  const sweep: LeftRoundsSweep = { rounds: 0, worktrees: 0, processGroups: 0, live: 0 };
  const dir = await roundRecordsDir(repoDir);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(".json"));
  } catch {
    return sweep;
  }
  for (const name of names) {
    const path = join(dir, name);
    let record: unknown;
    try {
      record = JSON.parse(await readFile(path, "utf8"));
    } catch (error) {
      logger.warn(`left rounds: could not read ${path} (${(error as Error).message}); delete it if no round is running`);
      continue;
    }
    if (!isRoundLeftovers(record)) {
      logger.warn(`left rounds: ${path} is not a round record speedgate wrote; delete it if no round is running`);
      continue;
    }
    if (record.host !== hostname() || roundRuns(record)) {
      sweep.live++;
      continue;
    }
    for (const group of record.processGroups) {
      const leaderStart = readProcessStartTime(group.pgid);
      // The leader alive with another start time: the pid was reused, this is not the engine's group.
      // The leader gone while its group lives: the kernel never reuses a pid still naming a group.
      if (leaderStart !== null && group.start !== null && leaderStart !== group.start) continue;
      if (!processGroupAlive(group.pgid)) continue;
      signalProcessGroup(group.pgid, "SIGKILL");
      if (!(await waitForProcessGroupExit(group.pgid, 5_000)))
        logger.warn(`left rounds: process group ${group.pgid} of run ${record.runId} is still alive after SIGKILL`);
      sweep.processGroups++;
    }
    for (const worktree of record.worktrees) {
      await removeWorktree(repoDir, worktree);
      sweep.worktrees++;
    }
    // Only a folder the round made (speedgate-<run id>-…) is removed, whatever a record says.
    if (record.tempRoot && basename(record.tempRoot).startsWith("speedgate-")) await rm(record.tempRoot, { recursive: true, force: true });
    await rm(path, { force: true });
    sweep.rounds++;
    logger.info(
      `left rounds: removed what run ${record.runId} (pid ${record.pid}, gone) left: ${record.worktrees.length} worktree(s), ` +
        `${record.processGroups.length} process group(s) recorded`,
    );
  }
  return sweep;
}
