import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { speedgateEntryArgs } from "../../src/engine/locate-speedgate.js";
import { roundRecordsDir } from "../../src/engine/record-round-leftovers.js";
import { runCli } from "../cli/support/sim-round.js";
import { type GitRepository, makeGitRepository } from "../support/git/make-git-repository.js";
import { MARK_VARIABLE, markedProcesses, newMark } from "../support/find-marked-processes.js";
import { makeTempDir } from "../support/make-temp-dir.js";
import { commitsRoundPrompts, engineProfile, writeCommitsRound } from "../support/write-commits-round.js";

/*
 * A base/head round with runtime: process killed with SIGKILL (as a cancelled or timed-out job is)
 * runs none of its own clean-up. Its engines must die with it all the same (the keeper, whose pipe
 * from the round closes when the round's process ends), and `speedgate cleanup` in the repository
 * must remove the worktrees it left. The round is a real `speedgate run` process scoring the
 * reference engine, killed mid-benchmark.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The reference engine answers slowly (50 ms a token, 400 tokens), so the round is still benchmarking when it is killed. */
const PROFILE = engineProfile(5, 50, 400);

function waitForStderr(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString("utf8");
      if (!pattern.test(seen)) return;
      child.stderr?.off("data", onData);
      resolve();
    };
    child.stderr?.on("data", onData);
    child.once("exit", () => reject(new Error(`speedgate exited before printing ${pattern}; stderr:\n${seen}`)));
  });
}

/** Polls `check` until it holds, or fails at the deadline (generous: the machine may be loaded). */
async function pollUntil(what: string, check: () => boolean, deadlineMs = 30_000): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > deadlineMs) throw new Error(`${what}: not so after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - started;
}

describe("a base/head process round killed with SIGKILL", () => {
  let repo: GitRepository;
  let base = "";
  let head = "";

  beforeAll(async () => {
    repo = await makeGitRepository();
    base = await repo.commit("the engine", { "engine/profile.json": PROFILE });
    head = await repo.commit("pull request", { "engine/README.md": "faster\n" });
  });

  it("leaves no engine process running, and `speedgate cleanup` in the repository removes its worktrees", async () => {
    const mark = newMark();
    const configDir = await makeTempDir("speedgate-killed-round-");
    const configPath = await writeCommitsRound(configDir, {
      prompts: { "prompts.jsonl": commitsRoundPrompts(3) },
      baseline: { env: { [MARK_VARIABLE]: mark } },
      bench: { maxTokens: 400 },
    });
    const out = await makeTempDir("speedgate-killed-round-out-");
    const round = spawn(
      process.execPath,
      [
        ...speedgateEntryArgs(),
        "run",
        "--verbose",
        "--config",
        configPath,
        "--out",
        out,
        "--base",
        base,
        "--head",
        head,
        "--repo",
        repo.dir,
      ],
      {
        cwd: root,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    const exited = new Promise<void>((resolve) => round.once("exit", () => resolve()));
    await waitForStderr(round, /baseline: engine healthy|baseline: 1\/\d+ prompts done/);
    expect(markedProcesses(mark).length).toBeGreaterThan(0);
    const worktreesDuring = (await repo.git("worktree", "list", "--porcelain")).split("\n").filter((line) => line.startsWith("worktree "));
    expect(worktreesDuring).toHaveLength(3);

    round.kill("SIGKILL");
    await exited;
    const tookMs = await pollUntil("no engine process left", () => markedProcesses(mark).length === 0);
    // For the report, not a threshold: how long the engines outlived the round.
    console.info(`engines gone ${Math.round(tookMs)} ms after the round's process`);
    // The round could not clean up: its worktrees and its record are still there.
    expect((await repo.git("worktree", "list", "--porcelain")).split("\n").filter((line) => line.startsWith("worktree "))).toHaveLength(3);

    const { code, stdout } = await runCli(["cleanup", "--repo", repo.dir]);
    expect(code).toBe(0);
    expect(stdout).toContain("removed what 1 killed round(s) left");
    expect(stdout).toContain("2 worktree(s)");
    expect((await repo.git("worktree", "list", "--porcelain")).split("\n").filter((line) => line.startsWith("worktree "))).toEqual([
      `worktree ${repo.dir}`,
    ]);
    for (const dir of worktreesDuring.slice(1)) expect(existsSync(dir.slice("worktree ".length))).toBe(false);
    expect(readdirSync(await roundRecordsDir(repo.dir))).toEqual([]);
    // Nothing more to do the second time.
    expect((await runCli(["cleanup", "--repo", repo.dir])).stdout).toContain("removed what 0 killed round(s) left");
  }, 120_000);
});
