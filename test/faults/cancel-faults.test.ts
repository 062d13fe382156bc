import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { simCommand, writeCliRound } from "../cli/support/sim-round.js";
import { MARK_VARIABLE, markedProcesses, newMark } from "../support/find-marked-processes.js";
import { speedgateEntryArgs } from "../../src/engine/locate-speedgate.js";

/*
 * The runner cancels (SIGINT, then SIGTERM) while the candidate is being benchmarked: `speedgate run`
 * as a child process, the candidate under a leader with a worker that ignores SIGTERM. The same
 * signals during the baseline are in test/cli/run-signals.test.ts, and against containers in
 * test/docker/docker-signals.test.ts.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));
const withWorker = fileURLToPath(new URL("./fixtures/engine-with-worker.mjs", import.meta.url));

/** Collects the child's stderr and resolves when `pattern` first matches it. */
function watchStderr(child: ChildProcess): { seen: () => string; waitFor: (pattern: RegExp) => Promise<RegExpExecArray> } {
  let text = "";
  const waiters: Array<{ pattern: RegExp; resolve: (match: RegExpExecArray) => void; reject: (error: Error) => void }> = [];
  const check = (): void => {
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(text);
      if (!match) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(match);
    }
  };
  child.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    check();
  });
  child.once("exit", () => {
    for (const waiter of waiters.splice(0))
      waiter.reject(new Error(`speedgate exited before printing ${waiter.pattern}; stderr:\n${text}`));
  });
  return {
    seen: () => text,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve, reject });
        check();
      }),
  };
}

describe("the runner cancels speedgate run while the candidate is benchmarked", () => {
  it.each([[["SIGINT", "SIGTERM"]], [["SIGTERM"]]] as const)("%j: exit 130, no card, no engine process left", async (signals) => {
    const mark = newMark();
    const { dir, configPath } = await writeCliRound({
      baseline: { env: { [MARK_VARIABLE]: mark } },
      // Slow enough that the candidate is still streaming when the signals arrive.
      candidate: { command: ["{node}", withWorker, ...simCommand("--itl-ms", "200")] },
      bench: { requestIntervalMs: 50 },
    });
    const child = spawn(
      process.execPath,
      [...speedgateEntryArgs(), "run", "--verbose", "--config", configPath, "--out", join(dir, "out")],
      {
        cwd: root,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const stderr = watchStderr(child);
    await stderr.waitFor(/\[candidate\] engine leader pid (\d+) worker pid (\d+)/);
    await stderr.waitFor(/candidate: engine healthy/);
    // The candidate's leader and worker (and, isolated, its namespace's launcher and init) carry the mark.
    expect(markedProcesses(mark).length).toBeGreaterThanOrEqual(2);
    for (const signal of signals) child.kill(signal);
    expect(await exited, stderr.seen().slice(-3000)).toBe(130);
    expect(markedProcesses(mark)).toEqual([]);
    expect(existsSync(join(dir, "out", "scorecard.json"))).toBe(false);
    expect(existsSync(join(dir, "out", "scorecard.md"))).toBe(false);
  });
});
