import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processGroupAlive } from "../../src/engine/process-group.js";
import { type RoundLeftovers, RoundLeftoversRecord, roundRecordsDir } from "../../src/engine/record-round-leftovers.js";
import { sweepLeftRounds } from "../../src/engine/sweep-left-rounds.js";
import { addWorktree } from "../../src/git/git-worktree.js";
import { createRecordingLogger } from "../../src/logger.js";
import { readProcessStartTime } from "../../src/read-process-start-time.js";
import { makeGitRepository } from "../support/git/make-git-repository.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/** A pid that was a process and no longer is: a child that has exited and been reaped. */
async function goneProcess(): Promise<number> {
  const child = spawn("true");
  await new Promise((resolve) => child.once("exit", resolve));
  if (child.pid === undefined) throw new Error("true did not start");
  return child.pid;
}

describe("sweepLeftRounds", () => {
  it(
    "removes what a round whose process is gone left (its engine group, worktree, temporary folder, record) and leaves a running " +
      "round's alone",
    async () => {
      const repo = await makeGitRepository();
      const commit = await repo.commit("engine", { "engine.txt": "v1\n" });
      const roundDir = await makeTempDir("speedgate-left-round-");
      const worktree = join(roundDir, "baseline");
      await addWorktree(repo.dir, worktree, commit);
      const tempRoot = join(roundDir, "speedgate-run-1-abc");
      await mkdir(tempRoot);
      // The killed round's engine: a process group of its own, still running.
      const engine = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
      await new Promise((resolve) => engine.once("spawn", resolve));
      const pgid = engine.pid ?? 0;
      const exited = new Promise((resolve) => engine.once("exit", resolve));
      const dir = await roundRecordsDir(repo.dir);
      await mkdir(dir, { recursive: true });
      const killed: RoundLeftovers = {
        version: 1,
        runId: "run-1",
        pid: await goneProcess(),
        pidStart: null,
        host: hostname(),
        tempRoot,
        worktrees: [worktree],
        processGroups: [{ pgid, start: readProcessStartTime(pgid) }],
      };
      await writeFile(join(dir, "run-1.json"), JSON.stringify(killed));
      // This process's own round, still running: never touched.
      const live = await RoundLeftoversRecord.open(repo.dir, "run-2");
      await live.addWorktree("/nonexistent/of-a-live-round");

      const sweep = await sweepLeftRounds(repo.dir, createRecordingLogger());
      expect(sweep).toEqual({ rounds: 1, worktrees: 1, processGroups: 1, live: 1 });
      await exited;
      expect(processGroupAlive(pgid)).toBe(false);
      expect(existsSync(worktree)).toBe(false);
      expect(existsSync(tempRoot)).toBe(false);
      expect(await repo.git("worktree", "list", "--porcelain")).not.toContain(worktree);
      expect(await readdir(dir)).toEqual(["run-2.json"]);
      await live.remove();
      expect(await readdir(dir)).toEqual([]);
    },
  );

  it("leaves a group alone whose leader's pid now belongs to a process started later", async () => {
    const repo = await makeGitRepository();
    await repo.commit("engine", { "engine.txt": "v1\n" });
    const unrelated = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
    await new Promise((resolve) => unrelated.once("spawn", resolve));
    const pgid = unrelated.pid ?? 0;
    try {
      const dir = await roundRecordsDir(repo.dir);
      await mkdir(dir, { recursive: true });
      const record: RoundLeftovers = {
        version: 1,
        runId: "old",
        pid: await goneProcess(),
        pidStart: null,
        host: hostname(),
        tempRoot: null,
        worktrees: [],
        processGroups: [{ pgid, start: "1" }],
      };
      await writeFile(join(dir, "old.json"), JSON.stringify(record));
      expect(await sweepLeftRounds(repo.dir, createRecordingLogger())).toMatchObject({ rounds: 1, processGroups: 0 });
      expect(processGroupAlive(pgid)).toBe(true);
    } finally {
      process.kill(-pgid, "SIGKILL");
    }
  });
});
