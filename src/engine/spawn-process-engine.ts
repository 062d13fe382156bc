import { spawn } from "node:child_process";
import type { EngineRole } from "../failure/engine-failure.js";
import { EngineFailureError } from "../failure/engine-failure.js";
import { EXITED_HINT } from "../failure/failure-hints.js";
import type { EngineExit, RunningEngine } from "./engine-runtime.js";
import { LogRingBuffer } from "./log-ring-buffer.js";
import { signalProcessGroup, trackProcessGroup, waitForProcessGroupExit } from "./process-group.js";

export interface SpawnEngineOptions {
  role: EngineRole;
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  /** How long the group gets after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  /** Lines as they arrive, for progress output and for tests that wait for a line. */
  onLine?: (line: string) => void;
}

/** How long to wait for the pipes to drain after the engine exits, so its last words reach the tail. */
const DRAIN_AFTER_EXIT_MS = 200;

/**
 * Starts an engine in its own process group (detached), so stop() reaches every worker it forked,
 * and settles `exited` as soon as the leader exits, not when the last grandchild closes the pipes.
 */
export interface ProcessEngine extends RunningEngine {
  /** The leader's pid, which is also the process group id. */
  pid: number;
}

export async function spawnProcessEngine(options: SpawnEngineOptions): Promise<ProcessEngine> {
  const [program, ...args] = options.argv;
  if (!program) throw new Error("spawnProcessEngine: expected a command");
  const log = new LogRingBuffer({}, options.onLine);
  const child = spawn(program, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (chunk: Buffer) => log.write("stdout", chunk));
  child.stderr.on("data", (chunk: Buffer) => log.write("stderr", chunk));

  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        new EngineFailureError({
          engine: options.role,
          stage: "startup",
          kind: "exited",
          label: "the engine command could not be started",
          summary: `could not run ${JSON.stringify(program)} in ${options.cwd}: ${error.code ?? error.message}`,
          hint: `Check that the first argument of the command is a program on PATH (or an absolute path) and that the working folder exists. ${EXITED_HINT}`,
          exitCode: null,
          signal: null,
          logTail: [error.message],
        }),
      );
    });
  });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error("spawned engine has no pid");
  const untrack = trackProcessGroup(pgid);

  const exited = new Promise<EngineExit>((resolve) => {
    child.once("exit", (exitCode, signal) => {
      const done = (): void => {
        log.end();
        resolve({ exitCode, signal, oomKilled: false });
      };
      if (child.stdout.closed && child.stderr.closed) return done();
      const timer = setTimeout(done, DRAIN_AFTER_EXIT_MS);
      child.once("close", () => {
        clearTimeout(timer);
        done();
      });
    });
  });

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      signalProcessGroup(pgid, "SIGTERM");
      const gone = await waitForProcessGroupExit(pgid, options.stopGraceMs);
      if (!gone) {
        signalProcessGroup(pgid, "SIGKILL");
        await waitForProcessGroupExit(pgid, 5_000);
      }
      await exited;
      // Grandchildren may hold the pipes open after the group is gone; close our ends.
      child.stdout.destroy();
      child.stderr.destroy();
      untrack();
    })();
    return stopping;
  };

  return { role: options.role, baseUrl: options.baseUrl, exited, logTail: () => log.snapshot(), stop, pid: pgid };
}
