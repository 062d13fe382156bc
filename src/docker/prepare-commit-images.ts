import { createHash } from "node:crypto";
import type Dockerode from "dockerode";
import {
  type BuildDecision,
  type CommitChange,
  decideBuilds,
  describeCommitSide,
  diffOfChange,
  planCommitChange,
} from "../commits/plan-commit-change.js";
import type { LoadedRound } from "../config/load-round-config.js";
import type { RoundCommits } from "../config/resolve-round-commits.js";
import type { PreparedEngine, RuntimeContext, SourceReport } from "../engine/engine-runtime.js";
import { type EngineFailure, EngineFailureError, type EngineRole } from "../vocabulary/engine-failure.js";
import { imageBaseMismatch } from "../failure/image-base-mismatch.js";
import { isAncestor } from "../git/compare-commits.js";
import { buildCancelledFailure, buildFailure, buildTimedOutFailure } from "./build-failures.js";
import { dockerStatusCode } from "./docker-status-code.js";
import { createOverlayContext } from "./overlay-build-context.js";
import { readImageRevision } from "./read-image-revision.js";
import { type ResourceLimits, buildResourceLimits } from "./resolve-resource-limits.js";
import { LABEL_CREATED, LABEL_ROLE, LABEL_RUN_ID, makeResourceLabels } from "./resource-labels.js";
import { ROLE_RUN_BASELINE } from "./sweep-resources.js";
import { type BuildContainerOutcome, runBuildContainer } from "./run-build-container.js";
import { type ImageBuildOutcome, runImageBuild } from "./run-image-build.js";

/** Labels of a baseline image cached per base commit: what `speedgate cleanup --baselines` finds, and what a lookup checks. */
export const LABEL_BASELINE_KEY = "speedgate.baseline.key";
export const LABEL_BASELINE_BASE = "speedgate.baseline.base";
export const LABEL_BASELINE_ENGINE_IMAGE = "speedgate.baseline.engine-image";
/** Part of the cache key: a change to how baselines are made invalidates every cached one. */
const BASELINE_FORMAT = 1;

/** What the runtime lends this module: its daemon, round, limits and the way it turns a build outcome into an image or a failure. */
export interface CommitImagesHost {
  docker: Dockerode;
  round: LoadedRound;
  commits: RoundCommits;
  context: RuntimeContext;
  resourceLimits(): Promise<ResourceLimits>;
  builtImageOrThrow(role: EngineRole, outcome: ImageBuildOutcome, patchStep: number | null): string;
}

/** What the baseline's preparation learnt that the candidate's needs. */
interface CommitPlan {
  engineImageId: string;
  head: CommitChange;
  builds: { baseline: BuildDecision; candidate: BuildDecision };
}

const sha256 = (text: string | Buffer): string => createHash("sha256").update(text).digest("hex");

/** A build of the round's commands that did not finish, as the card says it. */
function buildStepFailure(
  role: EngineRole,
  outcome: Exclude<BuildContainerOutcome, { status: "built" }>,
  timeoutS: number,
): EngineFailureError {
  if (outcome.status === "cancelled") return new EngineFailureError(buildCancelledFailure(role, `${role} build`));
  if (outcome.status === "timed_out") {
    return new EngineFailureError(buildTimedOutFailure(role, `${role} build (source.build)`, timeoutS, outcome.lines));
  }
  const last = outcome.lines.filter((line) => line.trim() !== "").pop();
  return new EngineFailureError({
    ...buildFailure({
      role,
      stage: "build",
      kind: "build_error",
      label: "the build of compiled code failed (source.build)",
      summary: `${role} build exited with code ${outcome.exitCode ?? "unknown"}${last ? `: ${last}` : ""}`.slice(0, 2_000),
      logTail: outcome.lines,
    }),
    exitCode: outcome.exitCode,
    hint:
      "A source.build command failed in the engine image brought to this commit. Run the same commands in a container of the image " +
      "(with the cache volume mounted at source.buildCache) to reproduce; the build's last lines are below.",
  });
}

/**
 * Base/head mode with Docker: both engines are made from one engine image whose source checkout
 * (candidate.sourceDir) is at the image's commit. The baseline is that checkout brought to the base
 * (the diff from the image's commit to the base, applied in an overlay build) and is cached per base
 * commit; the candidate is the baseline with the pull request's diff (merge base to head). When
 * compiled code changes, both run the round's build commands with the runner's build cache mounted.
 */
export class CommitImages {
  private plan: CommitPlan | null = null;
  private readonly report: SourceReport;

  constructor(private readonly host: CommitImagesHost) {
    const { config } = host.round;
    this.report = {
      image: config.baseline.image ?? null,
      imageId: null,
      imageRevision: null,
      imageRevisionFrom: null,
      baseline: null,
      candidate: null,
    };
  }

  sourceReport(): SourceReport {
    return this.report;
  }

  private get source() {
    return this.host.round.config.source;
  }

  private get sourceDir(): string {
    const dir = this.host.round.config.candidate.sourceDir;
    if (!dir) throw new Error("docker runtime: scoring commits needs candidate.sourceDir");
    return dir;
  }

  /** The engine image brought to the base: from the cache when an earlier round made it for this base. */
  async prepareBaseline(engineImageId: string, signal: AbortSignal): Promise<PreparedEngine> {
    const { docker, commits, context } = this.host;
    const image = this.report.image ?? engineImageId;
    this.report.imageId = engineImageId;
    const revision = await readImageRevision(docker, {
      imageId: engineImageId,
      image,
      source: this.source.revision,
      repoDir: commits.repoDir,
      base: commits.base,
      labels: makeResourceLabels(context.runId, "baseline"),
      signal,
    });
    this.report.imageRevision = revision.commit;
    this.report.imageRevisionFrom = revision.from;
    if (!(await isAncestor(commits.repoDir, revision.commit, commits.base, signal))) {
      throw new EngineFailureError(
        imageBaseMismatch({
          image,
          imageRevision: revision.commit,
          base: commits.base,
          reason:
            `the image's commit ${revision.commit.slice(0, 12)} is not an ancestor of the base ${commits.base.slice(0, 12)}: the image ` +
            `was built from a commit the base does not contain (a newer main, another branch or a release branch)`,
        }),
      );
    }
    const baseChange = await planCommitChange(commits.repoDir, revision.commit, commits.base, this.source, signal);
    const head = await planCommitChange(commits.repoDir, commits.mergeBase, commits.head, this.source, signal);
    const builds = decideBuilds(baseChange, head);
    this.plan = { engineImageId, head, builds };
    const report = describeCommitSide(commits.base, baseChange, builds.baseline);
    this.report.baseline = report;
    if (baseChange.files.length === 0 && !builds.baseline.run) {
      context.logger.info(
        `docker: the image's source is at the base ${commits.base.slice(0, 12)} already; the baseline is the image itself`,
      );
      report.cache = "none";
      report.imageId = engineImageId;
      return { role: "baseline", imageId: engineImageId, patchHash: null };
    }
    const key = sha256(
      JSON.stringify({
        format: BASELINE_FORMAT,
        engineImageId,
        imageRevision: revision.commit,
        base: commits.base,
        sourceDir: this.sourceDir,
        paths: this.source.paths,
        build: builds.baseline.run ? { commands: this.source.build, cache: this.source.buildCache ?? null } : null,
      }),
    );
    const tag = `speedgate-baseline:${
      this.host.round.config.engine
        .toLowerCase()
        .replace(/[^a-z0-9_.-]+/g, "-")
        .slice(0, 40) || "engine"
    }-${commits.base.slice(0, 12)}-${key.slice(0, 12)}`;
    const cached = this.source.cacheBaseline ? await this.findCached(tag, key) : null;
    if (cached) {
      context.logger.info(`docker: baseline for the base ${commits.base.slice(0, 12)} found in the cache: ${tag} (${cached.slice(0, 19)})`);
      report.cache = "hit";
      report.overlayFiles = null;
      report.imageId = cached;
      if (builds.baseline.run)
        report.build = { ...report.build, ran: false, reason: `${builds.baseline.reason}; built by an earlier round (cached baseline)` };
      return { role: "baseline", imageId: cached, patchHash: null };
    }
    // Without source.cacheBaseline the baseline is the run's own: neither found nor kept.
    report.cache = this.source.cacheBaseline ? "miss" : null;
    const labels: Record<string, string> = this.source.cacheBaseline
      ? {
          [LABEL_RUN_ID]: `baseline-${key.slice(0, 16)}`,
          [LABEL_ROLE]: "baseline",
          [LABEL_CREATED]: new Date().toISOString(),
          [LABEL_BASELINE_KEY]: key,
          [LABEL_BASELINE_BASE]: commits.base,
          [LABEL_BASELINE_ENGINE_IMAGE]: engineImageId,
          "org.opencontainers.image.revision": commits.base,
        }
      : {
          ...makeResourceLabels(context.runId, "baseline"),
          [LABEL_ROLE]: ROLE_RUN_BASELINE,
          "org.opencontainers.image.revision": commits.base,
        };
    const finalTag = this.source.cacheBaseline
      ? tag
      : `speedgate-baseline-run:${context.runId.toLowerCase().replace(/[^a-z0-9_.-]+/g, "-")}`;
    let imageId = engineImageId;
    if (baseChange.files.length > 0) {
      // Before a build, the overlay alone is not the cached baseline: without the key, a later lookup cannot take it for one.
      const { [LABEL_BASELINE_KEY]: _key, ...overlayLabels } = labels;
      imageId = await this.buildBaseOverlay(
        engineImageId,
        baseChange,
        revision.commit,
        finalTag,
        builds.baseline.run ? overlayLabels : labels,
        signal,
      );
    }
    if (builds.baseline.run) imageId = await this.runBuild("baseline", imageId, finalTag, labels, false, signal);
    report.imageId = imageId;
    return { role: "baseline", imageId, patchHash: null };
  }

  /** The baseline with the pull request's change applied, and built when it changes compiled code. */
  async prepareCandidate(baselineImageId: string, signal: AbortSignal): Promise<PreparedEngine> {
    const plan = this.plan;
    if (!plan) throw new Error("docker runtime: the candidate of a commit round is prepared after its baseline");
    const { commits, context, round } = this.host;
    const report = describeCommitSide(commits.head, plan.head, plan.builds.candidate);
    this.report.candidate = report;
    const patch = await diffOfChange(commits.repoDir, plan.head, signal);
    const patchHash = patch.length > 0 ? sha256(patch) : null;
    const postPatch = round.config.candidate.postPatch;
    if (patch.length === 0 && postPatch.length === 0 && !plan.builds.candidate.run) {
      report.imageId = baselineImageId;
      return { role: "candidate", imageId: baselineImageId, patchHash };
    }
    const tag = `speedgate-candidate:${context.runId
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, "-")
      .slice(0, 100)}`;
    const labels = { ...makeResourceLabels(context.runId, "candidate"), "org.opencontainers.image.revision": commits.head };
    let imageId = baselineImageId;
    if (patch.length > 0 || postPatch.length > 0) {
      const overlay = createOverlayContext({
        baseImageId: baselineImageId,
        patch: patch.length > 0 ? patch : null,
        sourceDir: this.sourceDir,
        postPatch,
        labels,
      });
      context.logger.info(
        `docker: applying the pull request (${plan.head.files.length} files, ` +
          `${commits.mergeBase.slice(0, 12)}..${commits.head.slice(0, 12)}) on the baseline ${baselineImageId.slice(0, 19)}`,
      );
      const started = performance.now();
      // postPatch steps run the pull request's code: build.network decides (none by default).
      const outcome = await this.buildOverlay(overlay.archive, tag, round.config.build.network, "candidate overlay", signal);
      try {
        imageId = this.host.builtImageOrThrow("candidate", outcome, overlay.patchStep);
      } catch (error) {
        throw error instanceof EngineFailureError && error.failure.kind === "patch_conflict"
          ? new EngineFailureError(this.headConflict(error.failure))
          : error;
      }
      report.overlayMs = performance.now() - started;
    }
    if (plan.builds.candidate.run) imageId = await this.runBuild("candidate", imageId, tag, labels, true, signal);
    report.imageId = imageId;
    return { role: "candidate", imageId, patchHash };
  }

  /** The pull request does not apply to its base: the base changed the same lines since it branched off. */
  private headConflict(failure: EngineFailure): EngineFailure {
    const { commits } = this.host;
    return {
      ...failure,
      label: "the pull request does not apply to its base",
      summary: (
        `the pull request's changes (${commits.mergeBase.slice(0, 12)}..${commits.head.slice(0, 12)}) do not apply to its base ` +
        `${commits.base.slice(0, 12)}: ${failure.summary}`
      ).slice(0, 2_000),
      hint:
        "The base branch changed the same lines since the pull request branched off: rebase the pull request on its base (or merge the " +
        "base into it) and push again.",
    };
  }

  private async buildOverlay(
    archive: Buffer,
    tag: string,
    networkMode: "none" | "default" | "host",
    label: string,
    signal: AbortSignal,
  ): Promise<ImageBuildOutcome> {
    const { round, context } = this.host;
    return await runImageBuild(this.host.docker, {
      context: { archive },
      dockerfile: "Dockerfile",
      buildArgs: {},
      labels: {},
      tag,
      networkMode,
      limits: buildResourceLimits(await this.host.resourceLimits()),
      timeoutS: round.config.build.timeoutS,
      signal,
      logger: context.logger,
      label,
    });
  }

  private async findCached(tag: string, key: string): Promise<string | null> {
    try {
      const info = await this.host.docker.getImage(tag).inspect();
      return info.Config.Labels?.[LABEL_BASELINE_KEY] === key ? info.Id : null;
    } catch (error) {
      if (dockerStatusCode(error) === 404) return null;
      throw error;
    }
  }

  /** The diff from the image's commit to the base, applied in the image's checkout; a diff that does not apply is the image's mismatch. */
  private async buildBaseOverlay(
    engineImageId: string,
    change: CommitChange,
    imageRevision: string,
    tag: string,
    labels: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    const { commits, context } = this.host;
    const report = this.report.baseline;
    const diff = await diffOfChange(commits.repoDir, change, signal);
    const overlay = createOverlayContext({
      baseImageId: engineImageId,
      patch: diff,
      patchName: "base.patch",
      sourceDir: this.sourceDir,
      postPatch: [],
      labels,
    });
    context.logger.info(
      `docker: bringing the image's source from ${imageRevision.slice(0, 12)} to the base ${commits.base.slice(0, 12)} ` +
        `(${change.files.length} files)`,
    );
    const started = performance.now();
    // Only a diff is applied: nothing needs a network.
    const outcome = await this.buildOverlay(overlay.archive, tag, "none", "baseline overlay", signal);
    try {
      const imageId = this.host.builtImageOrThrow("baseline", outcome, overlay.patchStep);
      if (report) report.overlayMs = performance.now() - started;
      return imageId;
    } catch (error) {
      if (
        !(error instanceof EngineFailureError) ||
        (error.failure.kind !== "patch_conflict" && error.failure.kind !== "patch_tool_missing")
      )
        throw error;
      throw new EngineFailureError(
        imageBaseMismatch({
          image: this.report.image ?? engineImageId,
          imageRevision,
          base: commits.base,
          reason:
            `the diff from the image's commit to the base does not apply to the image's source in ${this.sourceDir} ` +
            `(${error.failure.summary}): the checkout in the image is not at ${imageRevision.slice(0, 12)}, or was changed after it ` +
            `was checked out`,
          logTail: error.failure.logTail,
        }),
      );
    }
  }

  /** source.build in a container of the image with the runner's build cache, committed as the engine's image. */
  private async runBuild(
    role: EngineRole,
    imageId: string,
    tag: string,
    labels: Record<string, string>,
    readOnlyCache: boolean,
    signal: AbortSignal,
  ): Promise<string> {
    const { docker, context, round } = this.host;
    const report = role === "baseline" ? this.report.baseline : this.report.candidate;
    if (this.source.build.length === 0) {
      throw new EngineFailureError({
        ...buildFailure({
          role,
          stage: "build",
          kind: "build_error",
          label: "compiled code changed and the round has no build commands",
          summary:
            `${report?.build.reason ?? "compiled code changed"}, but source.build is empty: the engine's compiled parts would not ` +
            `match its commit`,
          logTail: [],
        }),
        hint:
          "Add the commands that rebuild the engine's compiled parts in the image to source.build (for SGLang: pip install " +
          "./sgl-kernel; for vLLM: an editable build of a source checkout), or narrow source.compiledPaths.",
      });
    }
    const buildCache = this.source.buildCache;
    const volume = `speedgate-build-cache-${
      round.config.engine
        .toLowerCase()
        .replace(/[^a-z0-9_.-]+/g, "-")
        .slice(0, 60) || "engine"
    }`;
    const commands = `${this.source.build.length} command${this.source.build.length === 1 ? "" : "s"}`;
    const cache = buildCache ? ` with the build cache volume ${volume}${readOnlyCache ? " (read-only)" : ""}` : "";
    context.logger.info(`docker: building the ${role}'s compiled code (${commands})${cache}`);
    const outcome = await runBuildContainer(docker, {
      imageId,
      sourceDir: this.sourceDir,
      commands: this.source.build,
      // The candidate's build is the pull request's code: it reads the cache but cannot plant anything in it for later rounds.
      cache: buildCache ? { volume, target: buildCache, readOnly: readOnlyCache } : null,
      hitPattern: this.source.buildCacheHit ? new RegExp(this.source.buildCacheHit) : null,
      networkMode: round.config.build.network,
      docker: round.config.docker,
      limits: await this.host.resourceLimits(),
      timeoutS: round.config.build.timeoutS,
      containerLabels: makeResourceLabels(context.runId, role),
      imageLabels: labels,
      tag,
      signal,
      logger: context.logger,
      label: `${role} build`,
    });
    if (outcome.status !== "built") throw buildStepFailure(role, outcome, round.config.build.timeoutS);
    context.logger.info(
      `docker: ${role} build done in ${(outcome.ms / 1000).toFixed(1)} s${outcome.cache ? ` (cache ${outcome.cache})` : ""}`,
    );
    if (report) report.build = { ran: true, reason: report.build.reason, ms: outcome.ms, cache: outcome.cache, hit: outcome.hit };
    return outcome.imageId;
  }
}
