import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { LoadedRound } from "../config/load-round-config.js";
import type { EngineRole } from "../vocabulary/engine-failure.js";
import { EngineFailureError } from "../vocabulary/engine-failure.js";
import { findCompilerError } from "../failure/find-compiler-error.js";
import { BUILD_ERROR_HINT } from "../failure/failure-hints.js";
import { cleanLogLine } from "../safe-text/sanitize-log-tail.js";
import { applyPatch } from "./apply-patch.js";
import { isPortFree, portTakenFailure } from "./check-port-free.js";
import { processEngineCwd } from "./resolve-engine-cwd.js";
import { type RoundEngines, resolveRoundEngines } from "../config/resolve-round-engines.js";
import type { EngineRuntime, PreparedEngine, RunningEngine, RuntimeContext, SourceReport } from "./engine-runtime.js";
import { CommitWorktrees } from "./prepare-commit-worktrees.js";
import { allowedHostEnvironment } from "./allowed-host-environment.js";
import { type ProcessIsolation, detectProcessIsolation, isolateCommand, isolationFallbackWarning } from "./process-isolation.js";
import { resolveProgram } from "./resolve-program.js";
import { runTool } from "./run-tool.js";
import { type ProcessEngine, spawnProcessEngine } from "./spawn-process-engine.js";
import { findModelPaths } from "../failure/find-model-paths.js";
import { engineFamily } from "../vocabulary/engine-family.js";
import { PROCESS_ENGINE_HOST, substituteCommand } from "./substitute-command.js";
import { type EngineKeeper, startEngineKeeper } from "./start-engine-keeper.js";
import { RoundLeftoversRecord } from "./record-round-leftovers.js";
import { sweepLeftRounds } from "./sweep-left-rounds.js";

export interface ProcessRuntimeOptions {
  /** How engines are contained; probed on this machine when not given (tests force one). */
  isolation?: Promise<ProcessIsolation>;
}

/**
 * Runs engines as processes on this machine (`runtime: process`): the reference engine, a local
 * checkout, or a CI job without Docker. The candidate's patch is applied to a private copy of the
 * source, so the user's folder is never modified. Engines and postPatch steps run in namespaces of
 * their own where the machine allows it (see process-isolation.ts), with an allow-listed
 * environment; this is for trusted code all the same: they run as the runner's user.
 */
export class ProcessRuntime implements EngineRuntime {
  readonly name = "process" as const;
  private tempRoot: string | null = null;
  private patchedDir: string | null = null;
  private readonly engines = new Set<ProcessEngine>();
  private isolation: Promise<ProcessIsolation> | null = null;
  /** Base/head mode: each engine in a worktree of its commit. */
  private readonly worktrees: CommitWorktrees | null;
  /** Kills this round's engines and steps if the round's process dies without stopping them. */
  private keeper: Promise<EngineKeeper> | null = null;
  /** Base/head mode: what a killed round would leave in the repository, written down as it is made. */
  private leftovers: Promise<RoundLeftoversRecord> | null = null;

  constructor(
    private readonly round: LoadedRound,
    private readonly context: RuntimeContext,
    private readonly options: ProcessRuntimeOptions = {},
  ) {
    const commits = round.commits ?? null;
    this.worktrees = commits
      ? new CommitWorktrees(
          round,
          commits,
          context.logger,
          (role, command, cwd, signal) => this.runStep(role, command, cwd, signal, "a source.build step"),
          async (dir) => await (await this.leftoversRecord())?.addWorktree(dir),
        )
      : null;
  }

  sourceReport(): SourceReport | null {
    return this.worktrees?.sourceReport() ?? null;
  }

  private async ensureTempRoot(): Promise<string> {
    if (this.tempRoot) return this.tempRoot;
    this.tempRoot = await mkdtemp(join(tmpdir(), `speedgate-${this.context.runId}-`));
    await (await this.leftoversRecord())?.setTempRoot(this.tempRoot);
    return this.tempRoot;
  }

  /**
   * Base/head mode: first removes what earlier rounds in the repository left when they were killed
   * (their worktrees would pile up on a persistent runner, their engines hold the GPU and the port),
   * then writes this round's record. Null in the other modes, which make nothing in a repository.
   */
  private leftoversRecord(): Promise<RoundLeftoversRecord | null> {
    const commits = this.round.commits;
    if (!commits) return Promise.resolve(null);
    this.leftovers ??= (async () => {
      await sweepLeftRounds(commits.repoDir, this.context.logger);
      return await RoundLeftoversRecord.open(commits.repoDir, this.context.runId);
    })();
    return this.leftovers;
  }

  /** Started with the first engine or step; a process group is watched for as long as it runs. */
  private engineKeeper(): Promise<EngineKeeper> {
    this.keeper ??= startEngineKeeper();
    return this.keeper;
  }

  private async watchGroup(pgid: number): Promise<void> {
    (await this.engineKeeper()).watch(pgid);
    await (await this.leftoversRecord())?.addProcessGroup(pgid);
  }

  private async unwatchGroup(pgid: number): Promise<void> {
    (await this.engineKeeper()).unwatch(pgid);
    await (await this.leftoversRecord())?.removeProcessGroup(pgid);
  }

  /** Probed at the first process this round starts, and said once: in the job log, the fallback is a warning. */
  private isolated(): Promise<ProcessIsolation> {
    this.isolation ??= (this.options.isolation ?? detectProcessIsolation()).then((isolation) => {
      if (isolation.kind === "none") this.context.logger.warn(isolationFallbackWarning(isolation));
      else this.context.logger.info(`runtime process: each engine runs in ${isolation.description}`);
      return isolation;
    });
    return this.isolation;
  }

  async prepare(role: EngineRole, signal: AbortSignal): Promise<PreparedEngine> {
    if (this.worktrees) {
      await this.worktrees.prepare(role, await this.ensureTempRoot(), signal);
      return { role, imageId: null, patchHash: null };
    }
    const patch = this.round.patch;
    const sourceDir = this.round.config.candidate.sourceDir;
    if (role === "baseline" || !patch || !sourceDir)
      return { role, imageId: null, patchHash: role === "candidate" ? (patch?.sha256 ?? null) : null };
    const copy = join(await this.ensureTempRoot(), basename(sourceDir));
    await cp(sourceDir, copy, { recursive: true, verbatimSymlinks: true });
    this.context.logger.debug(`copied ${sourceDir} to ${copy} for the candidate`);
    const { tool } = await applyPatch({ dir: copy, patchPath: patch.path, patchText: patch.bytes.toString("utf8"), role, signal });
    this.context.logger.info(`candidate: applied ${basename(patch.path)} with ${tool}`);
    this.patchedDir = copy;
    for (const command of this.round.config.candidate.postPatch) await this.runStep("candidate", command, copy, signal, "a postPatch step");
    return { role, imageId: null, patchHash: patch.sha256 };
  }

  /** A postPatch or build step, run as the engines run (isolated, allow-listed environment); a failure is the engine's build failure. */
  private async runStep(role: EngineRole, command: string[], cwd: string, signal: AbortSignal, what: string): Promise<void> {
    const timeoutS = this.round.config.build.timeoutS;
    const argv = substituteCommand(command, this.commandValues());
    const env = this.envFor(role);
    const isolation = await this.isolated();
    const keeper = await this.engineKeeper();
    // The patch's own code runs here: in the engine's isolation, so nothing it starts outlives the step.
    const missing = isolation.kind !== "none" && !resolveProgram(argv[0] ?? "", { cwd, path: env.PATH });
    const result = missing
      ? { exitCode: null, signal: null, output: `${argv[0] ?? ""}: not found\n`, missing: true, timedOut: false }
      : await runTool(isolateCommand(isolation, argv), {
          cwd,
          env,
          signal,
          timeoutMs: timeoutS * 1000,
          // The keeper alone: a step lasts one call, and a record of it would be stale by the next.
          onGroup: (pgid, running) => (running ? keeper.watch(pgid) : keeper.unwatch(pgid)),
        });
    if (signal.aborted) throw signal.reason;
    if (result.exitCode === 0) return;
    // Paths in the patched copy read as the source's own: "kernels/gemm.cpp:12:5: error: …", not a temporary folder.
    const lines = result.output
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => cleanLogLine(line.replaceAll(`${cwd}/`, "")));
    const step = `${what === "a postPatch step" ? "postPatch" : "source.build"} step \`${argv.join(" ")}\``;
    const said = result.missing
      ? `${step}: program not found`
      : result.timedOut
        ? `${step}: timed out`
        : (findCompilerError(lines) ?? `${step}: ${lines[lines.length - 1] ?? `exited with code ${result.exitCode}`}`);
    throw new EngineFailureError({
      engine: role,
      stage: "build",
      kind: result.timedOut ? "build_timeout" : "build_error",
      label: result.timedOut ? `${what} timed out after ${timeoutS} s` : `${what} failed`,
      summary: said.slice(0, 1_000),
      hint:
        what === "a postPatch step"
          ? BUILD_ERROR_HINT
          : "A source.build step failed in the worktree of the engine's commit. Run the same command by hand at the root of a checkout " +
            "of that commit; its output is in the log tail below.",
      exitCode: result.exitCode,
      signal: result.signal,
      logTail: lines.slice(-200),
    });
  }

  async start(role: EngineRole, signal: AbortSignal): Promise<RunningEngine> {
    if (signal.aborted) throw signal.reason;
    const { config } = this.round;
    const { command } = this.launches()[role];
    if (!command) throw new Error("runtime process: the round config has no baseline.command");
    // Something already on the port (an engine left from an interrupted run) would pass the health
    // check and be benchmarked in place of this engine.
    if (!(await isPortFree(config.port))) throw new EngineFailureError(portTakenFailure(role, config.port, "process"));
    const argv = substituteCommand(command, this.commandValues());
    const cwd = this.cwdFor(role);
    this.context.logger.debug(`${role}: starting ${argv.join(" ")} in ${cwd}`);
    await this.engineKeeper();
    const spawned = await spawnProcessEngine({
      role,
      argv,
      cwd,
      env: this.envFor(role),
      isolation: await this.isolated(),
      baseUrl: `http://${PROCESS_ENGINE_HOST}:${config.port}`,
      stopGraceMs: config.docker.stopTimeoutS * 1000,
      modelPaths: findModelPaths(engineFamily(config.engine), argv),
      onLine: (line) => this.context.logger.debug(`[${role}] ${cleanLogLine(line)}`),
    });
    await this.watchGroup(spawned.pid);
    const engine: ProcessEngine = {
      ...spawned,
      stop: async () => {
        await spawned.stop();
        await this.unwatchGroup(spawned.pid);
      },
    };
    this.engines.add(engine);
    return engine;
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.engines].map((engine) => engine.stop()));
    this.engines.clear();
    await this.worktrees?.dispose();
    if (this.tempRoot) await rm(this.tempRoot, { recursive: true, force: true });
    this.tempRoot = null;
    this.patchedDir = null;
    const leftovers = this.leftovers;
    this.leftovers = null;
    // A record that could not be written has nothing to remove; the round's own failure says why.
    await (await leftovers?.catch(() => null))?.remove();
    const keeper = this.keeper;
    this.keeper = null;
    (await keeper?.catch(() => null))?.close();
  }

  private commandValues() {
    const { config } = this.round;
    return { port: config.port, host: PROCESS_ENGINE_HOST, contextLimit: config.bench.contextLimit, model: config.bench.model };
  }

  /** The allowed part of the host's environment (PATH, HOME, locale, CUDA…), then the config's. */
  private envFor(role: EngineRole): NodeJS.ProcessEnv {
    return { ...allowedHostEnvironment(process.env), ...this.launches()[role].env };
  }

  /** Both engines as every command reads the config (the defaults filled in one place). */
  private launches(): RoundEngines {
    return resolveRoundEngines(this.round.config, this.round.configPath, { commits: this.worktrees !== null });
  }

  private cwdFor(role: EngineRole): string {
    if (this.worktrees) return this.worktrees.cwdFor(role);
    return processEngineCwd(role, this.round.config, this.round.configPath, this.patchedDir);
  }
}
