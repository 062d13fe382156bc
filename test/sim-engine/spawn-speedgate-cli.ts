import { type ChildProcess, spawn } from "node:child_process";
import { speedgateEntryArgs } from "../../src/engine/locate-speedgate.js";

export interface CliProcess {
  child: ChildProcess;
  stderr: () => string;
  /** Resolves when stderr has a line containing `text`; rejects if the process exits first. */
  waitForLine(text: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `speedgate <args>` from this run's sources (their test-run bundle) in its own process, as a round's process runtime would. */
export function spawnSpeedgateCli(args: string[]): CliProcess {
  const child = spawn(process.execPath, [...speedgateEntryArgs(), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const waiters: Array<{ text: string; resolve: () => void; reject: (error: Error) => void }> = [];
  const check = (): void => {
    for (const waiter of [...waiters]) {
      if (stderr.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stderr?.on("data", (part: Buffer) => {
    stderr += part.toString("utf8");
    check();
  });
  child.stdout?.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    // "close" comes after the exit and after stdio ended, so stderr is complete by then.
    child.on("close", (code, signal) => {
      for (const waiter of waiters.splice(0))
        waiter.reject(new Error(`exited (${code ?? signal}) before "${waiter.text}"; stderr:\n${stderr}`));
      resolve({ code, signal });
    });
  });
  return {
    child,
    stderr: () => stderr,
    exited,
    waitForLine: (text) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ text, resolve, reject });
        check();
      }),
  };
}
