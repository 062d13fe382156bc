import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MARK_VARIABLE, markedProcesses, newMark } from "../support/find-marked-processes.js";
import { writeCliRound } from "./support/sim-round.js";
import { speedgateEntryArgs } from "../../src/engine/locate-speedgate.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const fakeEngine = fileURLToPath(new URL("../engine/fixtures/fake-engine.mjs", import.meta.url));

/** Resolves with the first match of `pattern` in the child's stderr. */
function waitForStderr(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString("utf8");
      const match = pattern.exec(seen);
      if (match) {
        child.stderr?.off("data", onData);
        resolve(match);
      }
    };
    child.stderr?.on("data", onData);
    child.once("exit", () => reject(new Error(`speedgate exited before printing ${pattern}; stderr:\n${seen}`)));
  });
}

describe("speedgate run under SIGINT and SIGTERM", () => {
  it.each([[["SIGINT"]], [["SIGTERM"]], [["SIGINT", "SIGTERM"]], [["SIGINT", "SIGINT"]]] as const)(
    "leaves no engine process running after %j mid-benchmark",
    async (signals) => {
      // The engine streams forever and forks a worker that ignores SIGTERM, like a real engine's scheduler.
      const mark = newMark();
      const { dir, configPath } = await writeCliRound({
        baseline: { command: ["{node}", fakeEngine, "spawn-child", "{port}"], env: { [MARK_VARIABLE]: mark } },
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
      const started = waitForStderr(child, /engine pid (\d+) grandchild pid (\d+)/);
      await waitForStderr(child, /baseline: 1\/\d+ prompts done|baseline: engine healthy/);
      await started;
      // The engine, its worker, and (isolated) the namespace's launcher and init.
      expect(markedProcesses(mark).length).toBeGreaterThanOrEqual(2);
      for (const signal of signals) child.kill(signal);
      expect(await exited).toBe(130);
      expect(markedProcesses(mark)).toEqual([]);
      expect(existsSync(join(dir, "out", "scorecard.json"))).toBe(false);
    },
  );
});
