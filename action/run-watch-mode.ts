import { access, mkdir, readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { loadRound } from "../src/config/load-round-config.js";
import { NotFirstParentError, listFirstParentCommits } from "../src/git/list-first-parent-commits.js";
import { findRepositoryRoot, resolveCommit } from "../src/git/resolve-commit.js";
import type { CommitRoundRunner } from "../src/round/run-commit-round.js";
import { type WatchRun, readWatchSettings, resolveWatchBase, runWatch } from "../src/round/run-watch.js";
import { writeWatchReport } from "../src/round/write-watch-report.js";
import { writeAtomically } from "../src/round/write-scorecard.js";
import { ConfigError } from "../src/vocabulary/config-error.js";
import { type WatchState, parseWatchState } from "../src/watch/watch-state.js";
import { createProgressRenderer } from "../src/cli/render-round-progress.js";
import { describeWatchRun } from "../src/cli/describe-watch-run.js";
import type { ActionContext } from "./action-context.js";
import type { WatchModeSettings } from "./action-settings.js";
import { createRunId } from "./create-run-id.js";
import { INPUTS } from "./input-helper.js";
import type { ActionDependencies } from "./main.js";
import { readCardSource } from "./read-card-source.js";

export interface WatchActionResult {
  run: WatchRun;
  maxDrift: number;
  /** The drift round's card files; null when main had not moved from the good commit. */
  card: { jsonPath: string; markdownPath: string } | null;
  watchPath: string;
  statePath: string;
  /** What the job summary shows: the watch's verdict, then the bisection's report when one ran. */
  summary: string;
}

/** The state file as `speedgate watch` keeps it; absent is a first run, unreadable is refused naming the input. */
async function readState(path: string): Promise<WatchState | null> {
  try {
    await access(path);
  } catch {
    return null;
  }
  try {
    return parseWatchState(await readFile(path, "utf8"), path);
  } catch (error) {
    throw new ConfigError(`input "${INPUTS.stateFile}": ${(error as Error).message}; delete it to start the watch again from watch.since`);
  }
}

async function findClone(settings: WatchModeSettings, context: ActionContext): Promise<string> {
  const from = resolve(settings.repositoryPath ?? context.workspace ?? process.cwd());
  const root = await findRepositoryRoot(from);
  if (!root) {
    throw new ConfigError(
      `input "${INPUTS.repositoryPath}": expected a clone of the engine's repository (actions/checkout with fetch-depth: 0), ` +
        `but ${from} is not in a git repository`,
    );
  }
  return root;
}

/**
 * Main's head: head-sha, else the commit checked out. A head-sha must be in the checked-out branch's
 * first-parent history: the watch measures main, and a commit main was never at (a fork's, a merged branch's own) is refused here,
 * before any engine runs it.
 */
async function resolveHead(repoDir: string, settings: WatchModeSettings): Promise<string> {
  const checkedOut = await resolveCommit(repoDir, "HEAD");
  if (!checkedOut) throw new ConfigError(`input "${INPUTS.repositoryPath}": ${repoDir} has no commit checked out`);
  if (settings.head === null) return checkedOut;
  const head = await resolveCommit(repoDir, settings.head);
  if (!head) {
    throw new ConfigError(
      `input "${INPUTS.headSha}": expected a commit of main in the clone at ${repoDir} (actions/checkout with fetch-depth: 0), ` +
        `got ${JSON.stringify(settings.head)}`,
    );
  }
  try {
    await listFirstParentCommits(repoDir, head, checkedOut);
  } catch (error) {
    if (!(error instanceof NotFirstParentError)) throw error;
    throw new ConfigError(
      `input "${INPUTS.headSha}": ${head.slice(0, 12)} is not in the first-parent history of the checked-out branch ` +
        `(${checkedOut.slice(0, 12)}): mode: watch scores commits main itself was at (a merged branch's own commits are not); ` +
        "check out the default branch",
    );
  }
  return head;
}

/**
 * mode: watch: `speedgate watch` through the action's runtime. Each round (the drift round, and the
 * bisection's steps with bisect: true) is a base/head round of two main commits loaded from the round
 * config, run by the same runner as mode: run's; the card, watch.json and the state file are written as
 * the CLI writes them, so the same workflow can move between the two.
 */
export async function runWatchMode(
  settings: WatchModeSettings,
  context: ActionContext,
  deps: ActionDependencies,
): Promise<WatchActionResult> {
  const configPath = resolve(settings.config);
  try {
    await access(configPath);
  } catch {
    throw new ConfigError(`input "${INPUTS.config}": expected a readable round config file, could not read ${configPath}`);
  }
  const watch = await readWatchSettings(configPath);
  const repoDir = await findClone(settings, context);
  const head = await resolveHead(repoDir, settings);
  const statePath = resolve(repoDir, settings.stateFile);
  const state = await readState(statePath);
  const base = await resolveWatchBase({
    repoDir,
    head,
    given: settings.good,
    state,
    since: watch.since,
    labels: { given: `input "${INPUTS.baseSha}"`, since: "watch.since" },
  });
  deps.logger.info(`watch: main's head ${head.slice(0, 12)} against ${base.good.slice(0, 12)}, ${base.because}`);
  const runId = createRunId(context);
  let started = false;
  const progress = createProgressRenderer({ write: (text) => deps.logger.info(text.replace(/\n$/, "")) });
  const runRound: CommitRoundRunner = async (request) => {
    const round = await loadRound(configPath, {
      commits: {
        base: request.base,
        head: request.head,
        repoDir,
        labels: { base: `${request.label}'s base`, head: `${request.label}'s head`, repo: `input "${INPUTS.repositoryPath}"` },
      },
    });
    if (!started) {
      deps.onRunStarted({ runId, runtime: round.config.runtime });
      started = true;
    }
    deps.logger.info(`${request.label}: ${request.head.slice(0, 12)} against ${request.base.slice(0, 12)}`);
    // The card says which commits of main it scored: the app files it under main's series by them.
    const source = { ...readCardSource(context), headSha: request.head };
    return await deps.runRound({
      round,
      logger: deps.logger,
      signal: deps.signal,
      runId,
      shard: null,
      source,
      onProgress: progress.onProgress,
    });
  };
  const run = await runWatch({
    repoDir,
    head,
    base,
    state,
    watch,
    bisect: settings.bisect,
    runRound,
    logger: deps.logger,
    signal: deps.signal,
    now: () => new Date(),
  });
  await mkdir(settings.outDir, { recursive: true });
  const written = await writeWatchReport(settings.outDir, run, watch.maxDrift);
  await mkdir(dirname(statePath), { recursive: true });
  await writeAtomically(statePath, `${JSON.stringify(run.state, null, 2)}\n`);
  const described = describeWatchRun(run, watch.maxDrift);
  for (const line of described.trimEnd().split("\n")) deps.logger.info(line);
  const summary = ["```", described.trimEnd(), "```", ...(written.bisection ? ["", written.bisection.markdown] : [])].join("\n");
  return { run, maxDrift: watch.maxDrift, card: written.cardPaths, watchPath: written.watchPath, statePath, summary };
}

/** Why a watch step fails, or null: a round that measured nothing, an image short of the good commit, a drift with fail-on-drift. */
export function decideWatchOutcome(result: WatchActionResult, options: { failOnDrift: boolean; cancelled: boolean }): string | null {
  const { run } = result;
  if (options.cancelled) return "speedgate was cancelled during the watch";
  if (run.card?.failure?.kind === "image_base_mismatch") {
    return `the engine image cannot be brought to the good commit ${run.base.good.slice(0, 12)} (image_base_mismatch): see the card`;
  }
  if (run.judgement?.failed) return "the drift round scored nothing, so it says nothing about main: see the card's failure";
  if (options.failOnDrift && run.judgement?.alarm) {
    const drifted = run.judgement.drifted.map((entry) => entry.name ?? "the round").join(", ");
    return `main drifted beyond watch.maxDrift ${result.maxDrift}: ${drifted}`;
  }
  return null;
}

/** The step's outputs in mode: watch, by the names action.yml declares. */
export function watchOutputs(result: WatchActionResult): Record<string, string> {
  const { run } = result;
  return {
    drifted: String(run.judgement?.alarm ?? false),
    "good-sha": run.base.good,
    "next-good-sha": run.state.good,
    "watch-json": result.watchPath,
    "state-file": result.statePath,
    "round-score": run.card?.roundScore === null || run.card === null ? "" : String(run.card.roundScore),
    "failure-kind": run.card?.failure?.kind ?? "",
    "scorecard-json": result.card?.jsonPath ?? "",
    "scorecard-md": result.card?.markdownPath ?? "",
  };
}
