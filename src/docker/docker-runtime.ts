import { createHash } from "node:crypto";
import { readCheckoutCommit } from "../git/read-checkout-commit.js";
import { readdir } from "node:fs/promises";
import type Dockerode from "dockerode";
import type { BuildSpec } from "../config/engine-settings-schema.js";
import type { LoadedRound } from "../config/load-round-config.js";
import type { EngineRuntime, PreparedEngine, RunningEngine, RuntimeContext, SourceReport } from "../engine/engine-runtime.js";
import { isPortFree, portTakenFailure } from "../engine/check-port-free.js";
import { resolveRoundEngines } from "../config/resolve-round-engines.js";
import { type EngineRole, EngineFailureError } from "../vocabulary/engine-failure.js";
import { buildFailure } from "./build-failures.js";
import { ContainerEngine } from "./container-engine.js";
import { engineFamily } from "../vocabulary/engine-family.js";
import { createIsolatedNetwork } from "./create-isolated-network.js";
import { dockerSafeName } from "./docker-safe-name.js";
import { substituteContainerCommand } from "./container-command.js";
import { checkDaemonVersion } from "./check-daemon-version.js";
import { createContainerSpec } from "./create-container-spec.js";
import { createContainerWithinDiskLimit } from "./create-container-within-disk-limit.js";
import { daemonGoneFailure } from "./daemon-gone-failure.js";
import { describeContainerRefusal } from "./describe-container-refusal.js";
import { describeDaemonConnectionLoss } from "./describe-daemon-connection-loss.js";
import { ensureImage } from "./ensure-image.js";
import { readImageFile } from "./read-image-file.js";
import { createOverlayContext } from "./overlay-build-context.js";
import { CommitImages } from "./prepare-commit-images.js";
import { type ResourceLimits, buildResourceLimits, readHostMemory, resolveResourceLimits } from "./resolve-resource-limits.js";
import { LABEL_ROLE, LABEL_RUN_ID, makeResourceLabels } from "./resource-labels.js";
import { requireBuiltImage } from "./require-built-image.js";
import { retryWhileDaemonAway } from "./retry-while-daemon-away.js";
import { type ImageBuildOutcome, runImageBuild } from "./run-image-build.js";
import { type SweepCounts, sweepResources } from "./sweep-resources.js";

/** How long dispose keeps trying to reach a daemon that went away (a restart takes seconds) before giving up. */
const DISPOSE_DAEMON_WAIT_MS = 20_000;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs both engines in containers: the baseline from baseline.image or baseline.build, the
 * candidate from an overlay build (the baseline image with the patch applied) or candidate.build.
 * Every container, network and image it makes is labelled with the run, and dispose() sweeps them.
 * A Docker daemon that goes away (its connection drops, or it does not answer) is reported as an
 * engine failure of kind "infrastructure", at the stage the engine was in, never as the engine's fault.
 */
export class DockerRuntime implements EngineRuntime {
  readonly name = "docker" as const;
  private readonly prepared = new Map<EngineRole, Promise<PreparedEngine>>();
  private readonly engines = new Set<RunningEngine>();
  private network: Promise<string> | null = null;
  private limits: Promise<ResourceLimits> | null = null;
  private daemonChecked: Promise<unknown> | null = null;
  /** Set once the daemon refused docker.diskSize: its storage driver cannot limit a writable layer. */
  private diskLimitRefused = false;
  /** Set once the daemon was found gone: a card already says so, so dispose may give up quietly. */
  private daemonLost = false;
  /** Base/head mode: both engines made from the engine image brought to each commit. */
  private readonly commitImages: CommitImages | null;

  constructor(
    private readonly docker: Dockerode,
    private readonly round: LoadedRound,
    private readonly context: RuntimeContext,
  ) {
    const commits = round.commits ?? null;
    this.commitImages = commits
      ? new CommitImages({
          docker,
          round,
          commits,
          context,
          resourceLimits: () => this.resourceLimits(),
          builtImageOrThrow: (role, outcome, patchStep) => this.builtImageOrThrow(role, outcome, patchStep),
        })
      : null;
  }

  sourceReport(): SourceReport | null {
    return this.commitImages?.sourceReport() ?? null;
  }

  prepare(role: EngineRole, signal: AbortSignal): Promise<PreparedEngine> {
    let prepared = this.prepared.get(role);
    if (!prepared) {
      prepared = (role === "baseline" ? this.prepareBaseline(signal) : this.prepareCandidate(signal)).catch((error: unknown) => {
        throw this.daemonGoneOr(role, "build", error);
      });
      this.prepared.set(role, prepared);
      // A failed preparation may be retried by a later call rather than cached forever.
      prepared.catch(() => this.prepared.delete(role));
    }
    return prepared;
  }

  async start(role: EngineRole, signal: AbortSignal): Promise<RunningEngine> {
    try {
      return await this.startContainer(role, signal);
    } catch (error) {
      throw this.daemonGoneOr(role, "startup", error);
    }
  }

  async readBaselineFile(path: string, options: { maxBytes: number; what: string }, signal: AbortSignal): Promise<Buffer> {
    const { imageId } = await this.prepare("baseline", signal);
    if (!imageId) throw new Error("docker runtime: no baseline image to read from");
    signal.throwIfAborted();
    try {
      return await readImageFile(this.docker, { imageId, path, labels: makeResourceLabels(this.context.runId, "baseline"), ...options });
    } catch (error) {
      throw this.daemonGoneOr("baseline", "build", error);
    }
  }

  /** An infrastructure failure when `error` is the daemon's connection lost, else `error` as it was. */
  private daemonGoneOr(role: EngineRole, stage: "build" | "startup", error: unknown): unknown {
    if (error instanceof EngineFailureError) return error;
    const lost = describeDaemonConnectionLoss(error);
    if (!lost) return error;
    this.daemonLost = true;
    this.context.logger.error(
      `docker: the Docker daemon does not answer (${lost}) while the ${role} engine ` +
        `${stage === "build" ? "was being prepared" : "was starting"}`,
    );
    return new EngineFailureError(daemonGoneFailure(role, stage, lost));
  }

  private async startContainer(role: EngineRole, signal: AbortSignal): Promise<RunningEngine> {
    const { config } = this.round;
    const { imageId } = await this.prepare(role, signal);
    if (!imageId) throw new Error(`docker runtime: no image for the ${role} engine`);
    this.daemonChecked ??= checkDaemonVersion(this.docker, this.context.logger);
    await this.daemonChecked;
    // On the host network, something already on the port (an engine left by an interrupted run) would answer
    // the health check while this engine loads, and be benchmarked in its place: refuse, as the process runtime does.
    if (config.docker.network === "host" && !(await isPortFree(config.port)))
      throw new EngineFailureError(portTakenFailure(role, config.port, "docker"));
    const networkMode =
      config.docker.network === "host"
        ? "host"
        : await this.ensureNetwork().catch((error: unknown) => {
            if (describeDaemonConnectionLoss(error)) throw error;
            throw new EngineFailureError(describeContainerRefusal(role, "create", errorMessage(error), config.docker));
          });
    // As in the process runtime, the candidate's variables add to the baseline's; nothing comes from this process.
    const { command, env, cwd } = resolveRoundEngines(config, this.round.configPath)[role];
    const limits = await this.resourceLimits();
    const spec = createContainerSpec({
      name: `speedgate-${dockerSafeName(this.context.runId)}-${role}-${Date.now().toString(36)}`,
      imageId,
      command: command
        ? substituteContainerCommand(command, {
            port: config.port,
            host: networkMode === "host" ? "127.0.0.1" : "0.0.0.0",
            contextLimit: config.bench.contextLimit,
            model: config.bench.model,
          })
        : null,
      env,
      labels: makeResourceLabels(this.context.runId, role),
      docker: config.docker,
      limits: this.diskLimitRefused ? { ...limits, diskBytes: null } : limits,
      networkMode,
      workingDir: cwd ?? undefined,
    });
    signal.throwIfAborted();
    let container: Dockerode.Container;
    try {
      container = await this.createWithinDiskLimit(role, spec);
    } catch (error) {
      this.context.logger.error(`docker: could not create the ${role} container: ${errorMessage(error)}`);
      if (describeDaemonConnectionLoss(error)) throw error;
      // The daemon answered and said no (an unknown ulimit, a CPU count above the host's): a card, not a crash.
      throw new EngineFailureError(describeContainerRefusal(role, "create", errorMessage(error), config.docker));
    }
    try {
      await container.start();
    } catch (error) {
      // The created container stays until dispose() sweeps the run: its spec is evidence for the log.
      throw this.describeStartError(role, error);
    }
    let host = "127.0.0.1";
    if (networkMode !== "host") {
      const info = await container.inspect();
      const address = info.NetworkSettings.Networks[networkMode]?.IPAddress;
      if (address) host = address;
      // Exited already (its address is gone): an unresolvable name, since the exit is what gets reported.
      else if (!info.State.Running) host = `${role}-exited.invalid`;
      else throw new Error(`docker: the ${role} container has no address on network ${networkMode}`);
    }
    const engine = new ContainerEngine(
      role,
      `http://${host}:${config.port}`,
      container,
      this.context.logger,
      config.docker.stopTimeoutS,
      signal,
      engineFamily(config.engine),
    );
    this.engines.add(engine);
    void engine.exited.then((exit) => {
      if (exit.infrastructure) this.daemonLost = true;
    });
    this.context.logger.info(`docker: ${role} engine started in container ${container.id.slice(0, 12)} (${engine.baseUrl})`);
    return engine;
  }

  /**
   * Creates the container with its writable layer limited (docker.diskSize). A storage driver that cannot
   * (overlay2 on ext4, vfs) refuses the option: the container is created without it, and the round says
   * once that the engines' disk use is bounded only by the daemon's disk.
   */
  private async createWithinDiskLimit(role: EngineRole, spec: Dockerode.ContainerCreateOptions): Promise<Dockerode.Container> {
    return await createContainerWithinDiskLimit(this.docker, spec, (error) => {
      this.diskLimitRefused = true;
      this.context.logger.warn(
        `docker: the daemon cannot limit the ${role} container's writable layer to docker.diskSize ` +
          `(${this.round.config.docker.diskSize}): ${errorMessage(error)}. ` +
          "The engines' writes outside their mounts are bounded only by the daemon's disk; see docs/gpu-runner-checklist.md for a " +
          "storage driver that enforces it",
      );
    });
  }

  /** Resolved once per round against the daemon's host, and said once, so the job log shows what the engines may take. */
  private resourceLimits(): Promise<ResourceLimits> {
    this.limits ??= (async () => {
      const limits = resolveResourceLimits(this.round.config.docker, await readHostMemory(this.docker));
      const gib = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
      this.context.logger.info(
        `docker: each engine and the candidate's build may use ` +
          `${limits.memoryBytes === null ? "unlimited memory" : `${gib(limits.memoryBytes)} of memory`}, ` +
          `${gib(limits.shmBytes)} of /dev/shm, ${limits.pidsLimit} ` +
          `tasks${limits.nanoCpus === null ? "" : `, ${limits.nanoCpus / 1e9} CPUs`}` +
          `, ${limits.diskBytes === null ? "an unlimited writable layer" : `a writable layer of ${gib(limits.diskBytes)}`}`,
      );
      return limits;
    })();
    // A daemon that did not answer may answer the next call.
    this.limits.catch(() => (this.limits = null));
    return this.limits;
  }

  async dispose(): Promise<void> {
    await Promise.allSettled([...this.engines].map((engine) => engine.stop()));
    this.engines.clear();
    // The sweep also catches what a cancelled start left half-made (a created, unstarted container),
    // and what a daemon that went away kept: it is retried until the daemon answers again.
    let removed: SweepCounts;
    try {
      removed = await retryWhileDaemonAway(
        () =>
          sweepResources(this.docker, { runId: this.context.runId }, this.context.logger, {
            keepCandidateImages: this.round.config.docker.keepCandidateImage,
          }),
        { budgetMs: DISPOSE_DAEMON_WAIT_MS, logger: this.context.logger, what: "removing the run's containers and network" },
      );
    } catch (error) {
      const lost = describeDaemonConnectionLoss(error);
      if (!lost) throw error;
      const message =
        `docker: the Docker daemon did not answer within ${DISPOSE_DAEMON_WAIT_MS / 1000} s (${lost}): containers or the network of ` +
        `run ${this.context.runId} may be left; run \`speedgate cleanup --stale\` once the daemon is back`;
      this.context.logger.error(message);
      // The round's card already names the lost daemon and this fallback; otherwise this is the error.
      if (this.daemonLost) return;
      throw new Error(message, { cause: error });
    }
    this.context.logger.debug(
      `docker: removed ${removed.containers} container(s), ${removed.networks} network(s), ${removed.images} image(s) of run ` +
        `${this.context.runId}`,
    );
  }

  private describeStartError(role: EngineRole, error: unknown): Error {
    const message = errorMessage(error);
    if (/could not select device driver|nvidia-container-cli|unknown or invalid runtime name: nvidia/i.test(message)) {
      return new EngineFailureError({
        ...buildFailure({
          role,
          stage: "startup",
          kind: "gpu_unavailable",
          label: "no GPU available to Docker (infrastructure, not the patch)",
          summary: message.trim(),
          logTail: [],
        }),
        hint:
          "The runner's Docker cannot hand out GPUs: install the NVIDIA Container Toolkit and restart dockerd, or use a GPU runner. " +
          "This says nothing about the patch.",
      });
    }
    this.context.logger.error(`docker: could not start the ${role} container: ${message}`);
    if (describeDaemonConnectionLoss(error))
      return new Error(`docker: could not start the ${role} container: ${message}`, { cause: error });
    // runc refused what the spec asks (a ulimit the daemon may not raise) or the image lacks the command's program.
    return new EngineFailureError(describeContainerRefusal(role, "start", message, this.round.config.docker));
  }

  private ensureNetwork(): Promise<string> {
    this.network ??= createIsolatedNetwork(this.docker, this.context.runId);
    return this.network;
  }

  private async prepareBaseline(signal: AbortSignal): Promise<PreparedEngine> {
    const engine = await this.prepareEngineImage(signal);
    if (!this.commitImages || !engine.imageId) return engine;
    return await this.commitImages.prepareBaseline(engine.imageId, signal);
  }

  /**
   * The configured image (baseline.image or baseline.build): the baseline itself, or in base/head mode the image both engines are made
   * from.
   */
  private async prepareEngineImage(signal: AbortSignal): Promise<PreparedEngine> {
    const { config } = this.round;
    if (config.baseline.build) {
      const spec = config.baseline.build;
      const key = createHash("sha256")
        .update(JSON.stringify([spec.context, spec.dockerfile, spec.args]))
        .digest("hex")
        .slice(0, 16);
      // Stable labels, not this run's: a baseline image is shared by runs and kept, and labels that
      // changed every run would make every build's last steps, and so every overlay, miss the cache.
      const labels = { [LABEL_RUN_ID]: `baseline-${key}`, [LABEL_ROLE]: "baseline", ...(await this.revisionLabel(spec.context, signal)) };
      const imageId = await this.buildFromContext("baseline", spec, `speedgate-baseline:${key}`, labels, signal);
      return { role: "baseline", imageId, patchHash: null };
    }
    if (!config.baseline.image) throw new Error("docker runtime: baseline.image or baseline.build is required");
    const imageId = await ensureImage(this.docker, config.baseline.image, this.context.logger, signal);
    return { role: "baseline", imageId, patchHash: null };
  }

  /**
   * The commit the baseline is built from, as the label source.revision reads (by default
   * org.opencontainers.image.revision): a base/head round reads the image's commit there, and a
   * Dockerfile that sets no such label would leave it unknown. None when the context is no clean checkout.
   */
  private async revisionLabel(context: string, signal: AbortSignal): Promise<Record<string, string>> {
    const { revision } = this.round.config.source;
    if (!("label" in revision)) return {};
    const checkout = await readCheckoutCommit(context, signal);
    if ("none" in checkout) {
      this.context.logger.warn(`docker: the baseline image is not labelled ${revision.label} with its commit: ${checkout.none}`);
      return {};
    }
    this.context.logger.info(
      `docker: labelling the baseline image ${revision.label}=${checkout.commit.slice(0, 12)} (the commit of ${context})`,
    );
    return { [revision.label]: checkout.commit };
  }

  private async prepareCandidate(signal: AbortSignal): Promise<PreparedEngine> {
    const { config, patch } = this.round;
    if (this.commitImages) {
      const baseline = await this.prepare("baseline", signal);
      if (!baseline.imageId) throw new Error("docker runtime: the baseline has no image to overlay");
      return await this.commitImages.prepareCandidate(baseline.imageId, signal);
    }
    const tag = `speedgate-candidate:${dockerSafeName(this.context.runId)}`;
    if (config.candidate.build) {
      const imageId = await this.buildFromContext(
        "candidate",
        config.candidate.build,
        tag,
        makeResourceLabels(this.context.runId, "candidate"),
        signal,
      );
      return { role: "candidate", imageId, patchHash: patch?.sha256 ?? null };
    }
    const baseline = await this.prepare("baseline", signal);
    if (!baseline.imageId) throw new Error("docker runtime: the baseline has no image to overlay");
    if (!patch && config.candidate.postPatch.length === 0) {
      return { role: "candidate", imageId: baseline.imageId, patchHash: null };
    }
    const overlay = createOverlayContext({
      baseImageId: baseline.imageId,
      patch: patch?.bytes ?? null,
      sourceDir: config.candidate.sourceDir ?? null,
      postPatch: config.candidate.postPatch,
      labels: makeResourceLabels(this.context.runId, "candidate"),
    });
    this.context.logger.info(`docker: building the candidate overlay on ${baseline.imageId.slice(0, 19)}`);
    const started = performance.now();
    const outcome = await runImageBuild(this.docker, {
      context: { archive: overlay.archive },
      dockerfile: "Dockerfile",
      buildArgs: {},
      labels: {},
      tag,
      // The postPatch steps run the patch's code: no network unless build.network says otherwise.
      networkMode: config.build.network,
      limits: buildResourceLimits(await this.resourceLimits()),
      timeoutS: config.build.timeoutS,
      signal,
      logger: this.context.logger,
      label: "candidate overlay",
    });
    const imageId = this.builtImageOrThrow("candidate", outcome, overlay.patchStep);
    this.context.logger.info(
      `docker: candidate overlay built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${imageId.slice(0, 19)}`,
    );
    return { role: "candidate", imageId, patchHash: patch?.sha256 ?? null };
  }

  private async buildFromContext(
    role: EngineRole,
    spec: BuildSpec,
    tag: string,
    labels: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    let entries: string[];
    try {
      entries = await readdir(spec.context);
    } catch (error) {
      throw new Error(`docker: cannot read the ${role} build context ${spec.context}: ${errorMessage(error)}`, { cause: error });
    }
    this.context.logger.info(`docker: building the ${role} image from ${spec.context}`);
    const outcome = await runImageBuild(this.docker, {
      context: { dir: spec.context, entries },
      dockerfile: spec.dockerfile,
      buildArgs: spec.args,
      labels,
      tag,
      // The candidate's build is the patch's code; the baseline's comes from the default branch and may need to download.
      ...(role === "candidate" ? { networkMode: this.round.config.build.network } : {}),
      limits: buildResourceLimits(await this.resourceLimits()),
      timeoutS: this.round.config.build.timeoutS,
      signal,
      logger: this.context.logger,
      label: `${role} build`,
    });
    return this.builtImageOrThrow(role, outcome, null);
  }

  private builtImageOrThrow(role: EngineRole, outcome: ImageBuildOutcome, patchStep: number | null): string {
    return requireBuiltImage(role, outcome, patchStep, this.round.config.build.timeoutS);
  }
}
