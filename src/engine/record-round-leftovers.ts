import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { gitText } from "../git/run-git.js";
import { readProcessStartTime } from "../read-process-start-time.js";

/**
 * What a base/head process round leaves if it is killed before its clean-up runs: its worktrees, its
 * temporary folder and its engines' process groups, written down under the repository's git folder
 * (`<git common dir>/speedgate/rounds/<run id>.json`) before each is made. `speedgate cleanup` and the
 * next round in the same repository read these records and remove what belongs to a round whose
 * process is gone (sweep-left-rounds.ts). The record is removed with the round's own clean-up.
 */
export interface RoundLeftovers {
  version: 1;
  runId: string;
  /** The round's process: pid, its kernel start time (a reused pid is another process) and host. */
  pid: number;
  pidStart: string | null;
  host: string;
  tempRoot: string | null;
  worktrees: string[];
  /** Each engine's or step's process group, with its leader's start time. */
  processGroups: Array<{ pgid: number; start: string | null }>;
}

/** The folder of a repository's round records (it may not exist yet). */
export async function roundRecordsDir(repoDir: string): Promise<string> {
  const common = await gitText(repoDir, ["rev-parse", "--git-common-dir"]);
  return join(isAbsolute(common) ? common : resolve(repoDir, common), "speedgate", "rounds");
}

export class RoundLeftoversRecord {
  /** Writes are chained: each one replaces the file with the whole record as it is then. */
  #writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly record: RoundLeftovers,
  ) {}

  static async open(repoDir: string, runId: string): Promise<RoundLeftoversRecord> {
    const dir = await roundRecordsDir(repoDir);
    await mkdir(dir, { recursive: true });
    const record = new RoundLeftoversRecord(join(dir, `${runId.replace(/[^A-Za-z0-9._-]/g, "_")}.json`), {
      version: 1,
      runId,
      pid: process.pid,
      pidStart: readProcessStartTime(process.pid),
      host: hostname(),
      tempRoot: null,
      worktrees: [],
      processGroups: [],
    });
    await record.#write();
    return record;
  }

  async setTempRoot(dir: string): Promise<void> {
    this.record.tempRoot = dir;
    await this.#write();
  }

  /** Called before the worktree is added: a round killed while git makes it still has it written down. */
  async addWorktree(dir: string): Promise<void> {
    this.record.worktrees.push(dir);
    await this.#write();
  }

  async addProcessGroup(pgid: number): Promise<void> {
    this.record.processGroups.push({ pgid, start: readProcessStartTime(pgid) });
    await this.#write();
  }

  async removeProcessGroup(pgid: number): Promise<void> {
    this.record.processGroups = this.record.processGroups.filter((group) => group.pgid !== pgid);
    await this.#write();
  }

  /** The round cleaned up after itself: nothing is left to sweep. */
  async remove(): Promise<void> {
    await this.#writing;
    await rm(this.path, { force: true });
  }

  #write(): Promise<void> {
    const text = `${JSON.stringify(this.record, null, 2)}\n`;
    this.#writing = this.#writing.then(async () => {
      // Written beside and renamed over: a sweep never reads half a record.
      const partial = `${this.path}.${process.pid}.partial`;
      await writeFile(partial, text);
      await rename(partial, this.path);
    });
    return this.#writing;
  }
}
