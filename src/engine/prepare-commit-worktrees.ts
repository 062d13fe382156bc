import { writeFile } from "node:fs/promises";
import { resolveRoundEngines } from "../config/resolve-round-engines.js";
import { join } from "node:path";
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
import { EngineFailureError, type EngineRole } from "../vocabulary/engine-failure.js";
import { addWorktree, removeWorktree } from "../git/git-worktree.js";
import type { Logger } from "../logger.js";
import { applyPatch } from "./apply-patch.js";
import type { SourceReport } from "./engine-runtime.js";

/** Runs one host command for an engine (a build step), failing with the engine's build failure. */
export type RunHostStep = (role: EngineRole, command: string[], cwd: string, signal: AbortSignal) => Promise<void>;

/**
 * Base/head mode with runtime: process: each engine runs in a git worktree of its commit, made in a
 * folder of the round and removed with it. The candidate's worktree is the head when the head is up
 * to date with the base; otherwise it is the base with the pull request's diff applied, so the only
 * difference between the engines is the pull request. Compiled changes run source.build in both.
 */
export class CommitWorktrees {
  private readonly dirs = new Map<EngineRole, string>();
  private readonly report: SourceReport = {
    image: null,
    imageId: null,
    imageRevision: null,
    imageRevisionFrom: null,
    baseline: null,
    candidate: null,
  };
  private builds: { baseline: BuildDecision; candidate: BuildDecision } | null = null;
  private head: CommitChange | null = null;

  constructor(
    private readonly round: LoadedRound,
    private readonly commits: RoundCommits,
    private readonly logger: Logger,
    private readonly runStep: RunHostStep,
    /** Told each worktree's folder before it is made, so a killed round's worktrees can be found (record-round-leftovers.ts). */
    private readonly beforeWorktree: (dir: string) => Promise<void> = () => Promise.resolve(),
  ) {}

  sourceReport(): SourceReport {
    return this.report;
  }

  /** Where an engine runs: its cwd (relative to the repository's root) in its worktree. */
  cwdFor(role: EngineRole): string {
    const dir = this.dirs.get(role);
    if (!dir) throw new Error(`runtime process: the ${role} worktree was not prepared`);
    const { cwd } = resolveRoundEngines(this.round.config, this.round.configPath, { commits: true })[role];
    return cwd ? join(dir, cwd) : dir;
  }

  async prepare(role: EngineRole, root: string, signal: AbortSignal): Promise<void> {
    const { commits } = this;
    if (!this.head) {
      this.head = await planCommitChange(commits.repoDir, commits.mergeBase, commits.head, this.round.config.source, signal);
      this.builds = decideBuilds(null, this.head);
    }
    const builds = this.builds ?? decideBuilds(null, this.head);
    const dir = join(root, role);
    // Up to date with its base, the head's own tree is the candidate; otherwise the base, with the pull request applied below.
    const checkout = role === "baseline" || commits.mergeBase !== commits.base ? commits.base : commits.head;
    await this.beforeWorktree(dir);
    await addWorktree(commits.repoDir, dir, checkout, signal);
    this.dirs.set(role, dir);
    this.logger.info(`runtime process: ${role} runs in a worktree of ${checkout.slice(0, 12)} (${dir})`);
    const report = describeCommitSide(
      role === "baseline" ? commits.base : commits.head,
      role === "baseline" ? null : this.head,
      builds[role],
    );
    this.report[role] = report;
    if (role === "candidate" && checkout !== commits.head) {
      const patch = await diffOfChange(commits.repoDir, this.head, signal);
      if (patch.length > 0) {
        const patchPath = join(root, "pull-request.patch");
        await writeFile(patchPath, patch);
        const started = performance.now();
        try {
          await applyPatch({ dir, patchPath, patchText: patch.toString("utf8"), role, signal });
        } catch (error) {
          if (!(error instanceof EngineFailureError)) throw error;
          throw new EngineFailureError({
            ...error.failure,
            label: "the pull request does not apply to its base",
            hint:
              "The base branch changed the same lines since the pull request branched off: rebase the pull request on its base (or " +
              "merge the base into it) and push again.",
          });
        }
        report.overlayMs = performance.now() - started;
      }
    }
    if (role === "candidate") {
      for (const command of this.round.config.candidate.postPatch) await this.runStep("candidate", command, dir, signal);
    }
    if (builds[role].run) {
      if (this.round.config.source.build.length === 0) {
        throw new EngineFailureError({
          engine: role,
          stage: "build",
          kind: "build_error",
          label: "compiled code changed and the round has no build commands",
          summary: `${builds[role].reason}, but source.build is empty: the engine's compiled parts would not match its commit`,
          hint:
            "Add the commands that rebuild the engine's compiled parts to source.build (they run at the root of each worktree), or " +
            "narrow source.compiledPaths.",
          exitCode: null,
          signal: null,
          logTail: [],
        });
      }
      const started = performance.now();
      for (const command of this.round.config.source.build) await this.runStep(role, command, dir, signal);
      report.build = { ran: true, reason: builds[role].reason, ms: performance.now() - started, cache: null, hit: null };
    }
  }

  async dispose(): Promise<void> {
    for (const dir of this.dirs.values()) {
      await removeWorktree(this.commits.repoDir, dir).catch((error: unknown) =>
        this.logger.warn(`runtime process: could not remove the worktree ${dir}: ${(error as Error).message}`),
      );
    }
    this.dirs.clear();
  }
}
