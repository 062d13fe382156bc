import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { EngineRole } from "../vocabulary/engine-failure.js";
import { EngineFailureError } from "../vocabulary/engine-failure.js";
import { EXITED_HINT } from "../failure/failure-hints.js";
import type { RunningEngine } from "./engine-runtime.js";
import type { EngineExit, MissingModel } from "../vocabulary/engine-exit.js";
import type { CommandModelPath } from "../failure/find-model-paths.js";
import { access } from "node:fs/promises";
import { resolve as resolvePath } from "node:path";
import { LogRingBuffer } from "./log-ring-buffer.js";
import { signalProcessGroup, trackProcessGroup, waitForProcessGroupExit } from "./process-group.js";
import { type ProcessIsolation, isolateCommand } from "./process-isolation.js";
import { resolveProgram } from "./resolve-program.js";
import { waitForPipesToDrain } from "./wait-for-pipes-to-drain.js";

export interface SpawnEngineOptions {
  role: EngineRole;
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How the engine is contained: in namespaces behind an init, or only in a process group. */
  isolation: ProcessIsolation;
  baseUrl: string;
  /** How long the group gets after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  /** Lines as they arrive, for progress output and for tests that wait for a line. */
  onLine?: (line: string) => void;
  /** The model paths the command names (findModelPaths), looked for when the engine exits by itself. */
  modelPaths?: readonly CommandModelPath[];
}

/** The first of the command's model paths that is not on this machine, relative ones from the engine's folder. */
async function findMissingModel(options: SpawnEngineOptions): Promise<MissingModel | null> {
  for (const { flag, path } of options.modelPaths ?? []) {
    try {
      await access(resolvePath(options.cwd, path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { flag, path, where: "runner" };
    }
  }
  return null;
}

/**
 * How long to wait for the pipes to drain after the engine exits, so its last words reach the tail.
 * The pipes close at once unless something the engine started still holds them. In its own PID
 * namespace nothing the engine started survives the leader, so the close is only waited for (bounded
 * in case); in a bare process group a daemonized child may hold them for ever, so the wait ends after
 * a second with nothing arriving (five at most). On a loaded machine the last bytes took longer than
 * 200 ms to be read, and a llama.cpp that failed in 0.3 s was classified from a tail without its error
 * line; see waitForPipesToDrain for why the quiet is measured after the loop's I/O.
 */
const DRAIN_AFTER_EXIT_MS = { isolated: { quietMs: 10_000, maxMs: 10_000 }, processGroup: { quietMs: 1_000, maxMs: 5_000 } };

/**
 * Starts an engine in its own process group (detached), so stop() reaches every worker it forked,
 * and settles `exited` as soon as the leader exits, not when the last grandchild closes the pipes.
 * Isolated, the leader is `unshare`: it exits only once the engine's namespace is empty, so when
 * `exited` settles nothing the engine started is alive, whatever process group it moved to.
 */
export interface ProcessEngine extends RunningEngine {
  /** The leader's pid, which is also the process group id. */
  pid: number;
}

function cannotStart(options: SpawnEngineOptions, program: string, reason: string, detail: string): EngineFailureError {
  return new EngineFailureError({
    engine: options.role,
    stage: "startup",
    kind: "exited",
    label: "the engine command could not be started",
    summary: `could not run ${JSON.stringify(program)} in ${options.cwd}: ${reason}`,
    hint:
      `Check that the first argument of the command is a program on PATH (or an absolute path) and that the working folder exists. ` +
      `${EXITED_HINT}`,
    exitCode: null,
    signal: null,
    logTail: [detail],
  });
}

/** The namespace's init exits with 128 + n for an engine killed by signal n, as a shell or Docker says it. */
function exitOf(
  isolation: ProcessIsolation,
  exitCode: number | null,
  signal: NodeJS.Signals | null,
): { exitCode: number | null; signal: string | null } {
  if (isolation.kind === "none" || exitCode === null || exitCode <= 128 || exitCode > 128 + 64) return { exitCode, signal };
  const name = Object.entries(constants.signals).find(([, number]) => number === exitCode - 128)?.[0];
  return { exitCode, signal: name ?? signal };
}

export async function spawnProcessEngine(options: SpawnEngineOptions): Promise<ProcessEngine> {
  const engineProgram = options.argv[0];
  if (!engineProgram) throw new Error("spawnProcessEngine: expected a command");
  // Inside the namespace, only the init would learn that the program is missing: say it here, at once.
  if (options.isolation.kind !== "none" && !resolveProgram(engineProgram, { cwd: options.cwd, path: options.env.PATH })) {
    throw cannotStart(
      options,
      engineProgram,
      "ENOENT (not found, or not executable)",
      `${engineProgram}: not found on PATH=${options.env.PATH ?? ""}`,
    );
  }
  const [program, ...args] = isolateCommand(options.isolation, options.argv);
  if (!program) throw new Error("spawnProcessEngine: expected a command");
  const log = new LogRingBuffer({}, options.onLine);
  const child = spawn(program, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (chunk: Buffer) => log.write("stdout", chunk));
  child.stderr.on("data", (chunk: Buffer) => log.write("stderr", chunk));

  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(cannotStart(options, engineProgram, error.code ?? error.message, error.message)),
    );
  });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error("spawned engine has no pid");
  const untrack = trackProcessGroup(pgid);

  const exited = new Promise<EngineExit>((resolve) => {
    child.once("exit", (exitCode, signal) => {
      void waitForPipesToDrain(
        [child.stdout, child.stderr],
        options.isolation.kind === "none" ? DRAIN_AFTER_EXIT_MS.processGroup : DRAIN_AFTER_EXIT_MS.isolated,
      )
        .then(async () => {
          log.end();
          // A stop() ended it: nothing to explain.
          const missingModel = stopping ? null : await findMissingModel(options);
          return { ...exitOf(options.isolation, exitCode, signal), oomKilled: false, ...(missingModel ? { missingModel } : {}) };
        })
        .then(resolve);
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
