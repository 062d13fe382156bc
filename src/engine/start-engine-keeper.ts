import { type ChildProcess, spawn } from "node:child_process";
import { ENGINE_KEEPER_SCRIPT } from "./engine-keeper-script.js";

/** Kills the process groups it watches when this process ends, however it ends (see engine-keeper-script.ts). */
export interface EngineKeeper {
  /** The keeper's own pid, for logs and tests. */
  readonly pid: number;
  watch(pgid: number): void;
  unwatch(pgid: number): void;
  /**
   * Ends the keeper's pipe; it exits on reading the end, killing any group still watched. Not waited
   * for: the keeper is unreferenced, and a promise waiting on it would be all that is left of an
   * exiting CLI (Node then exits 13, a top-level await never settled).
   */
  close(): void;
}

/**
 * Starts the keeper: `node -e` with its stdin a pipe from this process, in a process group and
 * session of its own, so that a signal to this process's group (a terminal's, a runner killing a
 * step's group) does not end the keeper before it has done its work. Neither the keeper nor its pipe
 * keeps this process's event loop alive.
 */
export async function startEngineKeeper(): Promise<EngineKeeper> {
  const child: ChildProcess = spawn(process.execPath, ["-e", ENGINE_KEEPER_SCRIPT], {
    cwd: "/",
    env: { PATH: process.env.PATH ?? "" },
    detached: true,
    stdio: ["pipe", "ignore", "ignore"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error) => reject(new Error(`could not start the engine keeper (${process.execPath} -e): ${error.message}`)));
  });
  const { pid, stdin } = child;
  if (pid === undefined || !stdin) throw new Error("the engine keeper started without a pid or a stdin pipe");
  // A keeper that died (killed by hand) must not make this process fail on its next write.
  stdin.on("error", () => undefined);
  child.unref();
  (stdin as unknown as { unref?: () => void }).unref?.();
  const say = (line: string): void => {
    if (!stdin.destroyed && stdin.writable) stdin.write(`${line}\n`);
  };
  return {
    pid,
    watch: (pgid) => say(`+${pgid}`),
    unwatch: (pgid) => say(`-${pgid}`),
    close: () => {
      stdin.end();
    },
  };
}
