import { constants } from "node:os";
import { posix } from "node:path";
import type Dockerode from "dockerode";
import type { RunningEngine } from "../engine/engine-runtime.js";
import type { EngineExit } from "../vocabulary/engine-exit.js";
import { DEFAULT_LOG_LIMITS, LogRingBuffer } from "../engine/log-ring-buffer.js";
import { cleanLogLine } from "../safe-text/sanitize-log-tail.js";
import type { EngineRole } from "../vocabulary/engine-failure.js";
import type { EngineFamily } from "../vocabulary/engine-family.js";
import type { MissingModel } from "../vocabulary/engine-exit.js";
import { findModelPaths } from "../failure/find-model-paths.js";
import type { Logger } from "../logger.js";
import { daemonGoneLoss } from "./daemon-gone-failure.js";
import { DockerStreamDemuxer } from "./demux-docker-stream.js";
import { describeDaemonConnectionLoss } from "./describe-daemon-connection-loss.js";
import { dockerStatusCode } from "./docker-status-code.js";

/**
 * After the container exits, how long at most to wait for the daemon to end its log follow. It ends the
 * follow once it has closed the container's log driver, which it does when its copier has written the
 * container's last output, or after 10 s if the copier is stuck (moby's loggerCloseTimeout, after which it
 * drops what is left): so the follow's end, not a pause, says the record is whole, and this bound is moby's.
 */
const LOG_DRAIN_MS = 10_000;
/**
 * A cancelled run (the runner's SIGINT, then SIGKILL 7.5 s later) gives the engine this long to
 * stop before Docker kills it, so containers are gone well within the runner's window.
 */
const CANCELLED_STOP_TIMEOUT_S = 1;

/** What the daemon's wait said: a status code, or the socket error the daemon's connection ended with. */
interface WaitOutcome {
  exitCode: number | null;
  lost: string | null;
}

function signalName(exitCode: number | null): string | null {
  if (exitCode === null || exitCode <= 128 || exitCode > 128 + 64) return null;
  const number = exitCode - 128;
  const entry = Object.entries(constants.signals).find(([, value]) => value === number);
  return entry ? entry[0] : null;
}

/** Ignores "already stopped" (304) and "no such container" (404): stopping is idempotent. */
async function ignoreGone(action: Promise<unknown>): Promise<void> {
  try {
    await action;
  } catch (error) {
    const code = dockerStatusCode(error);
    if (code !== 304 && code !== 404 && !/is already in progress/.test((error as Error).message)) throw error;
  }
}

/**
 * An engine running in a started container: its log is followed live into a tail (demultiplexed,
 * since there is no TTY) and `exited` settles from the daemon's wait, with State.OOMKilled read
 * from an inspect once it returned. When the daemon goes away, the log follow ends with a socket
 * error while the wait (its response already begun) may never settle: that error settles `exited`
 * as an infrastructure loss instead, since whatever became of the container is the daemon's doing.
 */
export class ContainerEngine implements RunningEngine {
  readonly exited: Promise<EngineExit>;
  /** The same bounded buffer as the process runtime: a line that never ends cannot stall or grow the harness. */
  private readonly log: LogRingBuffer;
  /** Settles when the log follow ends: null when it ended with the container, else the daemon's socket error. */
  private readonly logsEnded: Promise<string | null>;
  /** The container's whole log as the daemon kept it, read once it has exited; the tail from then on. */
  private finalLog: string[] | null = null;
  private stopping: Promise<void> | null = null;

  constructor(
    readonly role: EngineRole,
    readonly baseUrl: string,
    private readonly container: Dockerode.Container,
    private readonly logger: Logger,
    private readonly stopTimeoutS: number,
    private readonly cancelSignal: AbortSignal,
    /** The engine the round names: which of its command's flags name the model, checked after an exit. */
    private readonly family: EngineFamily | null = null,
  ) {
    // Each line at debug, as the process runtime does: `--verbose` shows the engine's log whatever runs it.
    this.log = new LogRingBuffer({}, (line) => logger.debug(`[${role}] ${cleanLogLine(line)}`));
    this.logsEnded = this.followLogs();
    this.exited = this.waitForExit();
  }

  logTail(): string[] {
    return this.finalLog ?? this.log.snapshot();
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopAndRemove();
    return this.stopping;
  }

  private async followLogs(): Promise<string | null> {
    try {
      const stream = await this.container.logs({ follow: true, stdout: true, stderr: true });
      const demuxer = new DockerStreamDemuxer((stream, payload) => this.log.write(stream, payload));
      for await (const chunk of stream) demuxer.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      return null;
    } catch (error) {
      this.logger.debug(`${this.role} container: log stream ended: ${(error as Error).message}`);
      // Removing the container ends the stream cleanly; only a lost daemon breaks it off.
      return describeDaemonConnectionLoss(error);
    } finally {
      this.log.end();
    }
  }

  private async waitForExit(): Promise<EngineExit> {
    const abandonWait = new AbortController();
    const waited = this.container.wait({ condition: "not-running", abortSignal: abandonWait.signal }).then(
      (result: { StatusCode?: unknown }): WaitOutcome => ({
        exitCode: typeof result.StatusCode === "number" ? result.StatusCode : null,
        lost: null,
      }),
      (error: unknown): WaitOutcome => {
        this.logger.debug(`${this.role} container: wait failed: ${(error as Error).message}`);
        return { exitCode: null, lost: abandonWait.signal.aborted ? null : describeDaemonConnectionLoss(error) };
      },
    );
    const lostLogs = this.logsEnded.then((lost): Promise<WaitOutcome> => (lost ? Promise.resolve({ exitCode: null, lost }) : waited));
    const outcome = await Promise.race([waited, lostLogs]);
    if (outcome.lost !== null) {
      abandonWait.abort();
      this.logger.error(`${this.role} container: lost the connection to the Docker daemon: ${outcome.lost}`);
      return { exitCode: null, signal: null, oomKilled: false, infrastructure: daemonGoneLoss(this.role, outcome.lost) };
    }
    let exitCode = outcome.exitCode;
    let oomKilled = false;
    let inspected: Dockerode.ContainerInspectInfo | null = null;
    try {
      inspected = await this.container.inspect();
      oomKilled = inspected.State.OOMKilled;
      exitCode ??= inspected.State.ExitCode;
    } catch {
      // Removed already (stop() ran): the wait's status code is all there is.
    }
    await Promise.race([this.logsEnded, new Promise((resolve) => setTimeout(resolve, LOG_DRAIN_MS).unref())]);
    await this.readWholeLog();
    const missingModel = inspected ? await this.findMissingModel(inspected) : null;
    return { exitCode, signal: signalName(exitCode), oomKilled, ...(missingModel ? { missingModel } : {}) };
  }

  /**
   * Reads the exited container's log once more, whole, from the daemon's record, once the follow has ended:
   * the follow can end before the last lines of a container that dies within milliseconds reach it (Docker
   * 20.10's follower stops when the log driver closes, whatever it has not read yet), while the record is
   * whole by then (the driver closes after its copier wrote the last output). The followed tail stays when
   * the read fails (the container was removed by stop(), the daemon went away) or holds less.
   */
  private async readWholeLog(): Promise<void> {
    try {
      const read = await this.readLogRecord();
      const followed = this.log.snapshot();
      if (read.length < followed.length || read.join("\n") === followed.join("\n")) return;
      // At debug, as the followed lines were, so --verbose shows every line the card may quote.
      for (const line of read.slice(followed.length)) this.logger.debug(`[${this.role}] ${cleanLogLine(line)}`);
      this.finalLog = read;
    } catch (error) {
      this.logger.debug(`${this.role} container: could not read its whole log after it exited: ${(error as Error).message}`);
    }
  }

  /**
   * The first model path the command names that the exited container does not have (its mounts included:
   * the daemon mounts them to answer), for a card whose engine died before its log said why. Only a 404
   * counts: a daemon that cannot answer proves nothing.
   */
  private async findMissingModel(inspected: Dockerode.ContainerInspectInfo): Promise<MissingModel | null> {
    // A container stop() ended was meant to end: nothing to explain, and it may be gone already.
    if (this.stopping) return null;
    const argv = [inspected.Path, ...inspected.Args];
    const workingDir = inspected.Config.WorkingDir || "/";
    for (const { flag, path } of findModelPaths(this.family, argv)) {
      const absolute = posix.resolve(workingDir, path);
      try {
        await this.container.infoArchive({ path: absolute });
      } catch (error) {
        // A HEAD has no body: the daemon's 404 says the same for a missing path as for a missing container, so the
        // container is asked for once more.
        if (dockerStatusCode(error) === 404 && (await this.stillThere())) return { flag, path, where: "container" };
        this.logger.debug(`${this.role} container: could not look for ${absolute}: ${(error as Error).message}`);
      }
    }
    return null;
  }

  private async stillThere(): Promise<boolean> {
    try {
      await this.container.inspect();
      return true;
    } catch {
      return false;
    }
  }

  /** The container's log as the daemon has recorded it so far, its last lines. */
  private async readLogRecord(): Promise<string[]> {
    const whole = await this.container.logs({ follow: false, stdout: true, stderr: true, tail: DEFAULT_LOG_LIMITS.maxLines });
    const lines = new LogRingBuffer();
    const demuxer = new DockerStreamDemuxer((stream, payload) => lines.write(stream, payload));
    demuxer.push(Buffer.isBuffer(whole) ? whole : Buffer.from(String(whole)));
    lines.end();
    return lines.snapshot();
  }

  private async stopAndRemove(): Promise<void> {
    try {
      const timeoutS = this.cancelSignal.aborted ? Math.min(this.stopTimeoutS, CANCELLED_STOP_TIMEOUT_S) : this.stopTimeoutS;
      await ignoreGone(this.container.stop({ t: timeoutS }));
    } catch (error) {
      this.logger.warn(`${this.role} container: stop failed, removing it by force: ${(error as Error).message}`);
    }
    try {
      await ignoreGone(this.container.remove({ force: true, v: true }));
    } catch (error) {
      const lost = describeDaemonConnectionLoss(error);
      if (!lost) throw error;
      // Not an engine problem to raise here: the runtime's dispose retries the removal once the daemon is back.
      this.logger.warn(`${this.role} container: the Docker daemon does not answer (${lost}); the run's cleanup removes the container`);
    }
  }
}
