import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseRoundConfigYaml } from "../config/load-round-config.js";
import { DEFAULT_WATCH, type WatchSettings } from "../config/watch-settings-schema.js";
import { isAncestor } from "../git/compare-commits.js";
import { findFirstParentCommitBefore } from "../git/list-first-parent-commits.js";
import { resolveCommit } from "../git/resolve-commit.js";
import type { Logger } from "../logger.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import { ConfigError } from "../vocabulary/config-error.js";
import { type DriftJudgement, judgeDrift } from "../watch/judge-drift.js";
import { readScenarioEstimates } from "../watch/scenario-estimates.js";
import { type SeriesChange, findSeriesChange } from "../watch/find-series-change.js";
import { type WatchState, advanceWatchState, appendSeries, startWatchState } from "../watch/watch-state.js";
import type { CommitRoundRunner } from "./run-commit-round.js";
import { type LocalBisection, runLocalBisection } from "./run-bisection.js";

/** Where the drift round's good commit came from: named for this run, the state file, or watch.since. */
export type GoodSource = "given" | "state" | "since";

export interface WatchBase {
  good: string;
  from: GoodSource;
  /** Why, for the log and the summary. */
  because: string;
}

/** The round config's watch section, read without loading the round (its defaults when the config has none). */
export async function readWatchSettings(configPath: string): Promise<WatchSettings> {
  const path = resolve(configPath);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConfigError(
      `config: expected a readable round config file, could not read ${path} (${(error as NodeJS.ErrnoException).code ?? "?"})`,
    );
  }
  return parseRoundConfigYaml(text, path).watch ?? DEFAULT_WATCH;
}

/**
 * The commit a drift round measures main's head against: the one named (--good, the action's base-sha),
 * else the state's good commit, else watch.since (main's first-parent commit that many days before the
 * head, a tag, or a commit). It must be an ancestor of the head: main does not go back.
 */
export async function resolveWatchBase(options: {
  repoDir: string;
  head: string;
  given: string | null;
  state: WatchState | null;
  since: WatchSettings["since"];
  labels: { given: string; since: string };
}): Promise<WatchBase> {
  const { repoDir, head } = options;
  let base: WatchBase;
  if (options.given !== null) {
    const sha = await resolveCommit(repoDir, options.given);
    if (!sha)
      throw new ConfigError(
        `${options.labels.given}: expected a commit of the repository at ${repoDir}, got ${JSON.stringify(options.given)}`,
      );
    base = { good: sha, from: "given", because: `named by ${options.labels.given}` };
  } else if (options.state) {
    base = { good: options.state.good, from: "state", because: `the last commit the watch found good (${options.state.goodBecause})` };
  } else {
    const since = options.since;
    let sha: string | null;
    let because: string;
    if ("days" in since) {
      sha = await findFirstParentCommitBefore(repoDir, head, since.days);
      because = `main's commit ${since.days} day${since.days === 1 ? "" : "s"} before the head (${options.labels.since})`;
      if (!sha) {
        throw new ConfigError(
          `${options.labels.since}: main's history before ${head.slice(0, 12)} is younger than ${since.days} days; set watch.since to a ` +
            "tag or a commit, or name the good commit",
        );
      }
    } else if ("tag" in since) {
      sha = await resolveCommit(repoDir, `refs/tags/${since.tag}`);
      because = `the tag ${since.tag} (${options.labels.since})`;
      if (!sha)
        throw new ConfigError(`${options.labels.since}: expected a tag of the repository at ${repoDir}, got ${JSON.stringify(since.tag)}`);
    } else {
      sha = await resolveCommit(repoDir, since.commit);
      because = `the commit ${since.commit} (${options.labels.since})`;
      if (!sha)
        throw new ConfigError(
          `${options.labels.since}: expected a commit of the repository at ${repoDir}, got ${JSON.stringify(since.commit)}`,
        );
    }
    base = { good: sha, from: "since", because };
  }
  if (!(await isAncestor(repoDir, base.good, head))) {
    throw new ConfigError(
      `${base.from === "given" ? options.labels.given : base.from === "state" ? "the watch's state" : options.labels.since}: ` +
        `${base.good.slice(0, 12)} is not an ancestor of main's head ${head.slice(0, 12)}: the watch measures main against an earlier ` +
        "main (was main's history rewritten? delete the state file, or name the good commit)",
    );
  }
  return base;
}

export interface RunWatchOptions {
  repoDir: string;
  /** main's head, resolved. */
  head: string;
  base: WatchBase;
  state: WatchState | null;
  watch: WatchSettings;
  /** Bisect here, one round after another, when the drift round raises an alarm. */
  bisect: boolean;
  runRound: CommitRoundRunner;
  logger: Logger;
  signal?: AbortSignal;
  now: () => Date;
}

export interface WatchRun {
  base: WatchBase;
  head: string;
  /** Null when main has not moved from the good commit: there is nothing to compare. */
  card: Scorecard | null;
  judgement: DriftJudgement | null;
  /** A step the change-point method found in the series with this round (no alarm from the round itself). */
  change: SeriesChange | null;
  /** The state to keep for the next run. */
  state: WatchState;
  bisection: LocalBisection | null;
}

/**
 * One look at main: the drift round (its head against the good commit, through the same base/head
 * round a pull request gets), its judgement against watch.maxDrift, the bisection on this machine when
 * asked and an alarm was raised, and the state after it.
 */
export async function runWatch(options: RunWatchOptions): Promise<WatchRun> {
  const { base, head, watch } = options;
  const state = options.state ?? startWatchState(base.good, base.because, options.now());
  if (base.good === head) {
    options.logger.info(`main's head ${head.slice(0, 12)} is the good commit: nothing has merged since, nothing to measure`);
    return { base, head, card: null, judgement: null, change: null, state, bisection: null };
  }
  const card = await options.runRound({ base: base.good, head, label: "the drift round" });
  const judgement = judgeDrift(readScenarioEstimates(card), watch.maxDrift);
  // Without an alarm, the series with this round may still show a step (watch.changePoint).
  const change =
    judgement.alarm || judgement.failed
      ? null
      : findSeriesChange(appendSeries(state, { good: base.good, head, judgement, now: options.now() }), watch.changePoint);
  if (change) {
    options.logger.info(
      `change point: ${change.scenario ?? "the round"} ${((1 - change.score) * 100).toFixed(1)}% slower between ` +
        `${change.before.slice(0, 12)} and ${change.after.slice(0, 12)} (p ${change.pValue.toFixed(3)})`,
    );
  }
  let bisection: LocalBisection | null = null;
  if (change && options.bisect) {
    bisection = await runLocalBisection({
      repoDir: options.repoDir,
      good: change.before,
      bad: change.after,
      scenario: change.scenario,
      maxRepeats: watch.maxRepeats,
      explainShare: watch.explainShare,
      runRound: options.runRound,
      logger: options.logger,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
  if (judgement.alarm && options.bisect) {
    bisection = await runLocalBisection({
      repoDir: options.repoDir,
      good: base.good,
      bad: head,
      scenario: judgement.drifted[0]?.name ?? null,
      rangeCard: card,
      maxRepeats: watch.maxRepeats,
      explainShare: watch.explainShare,
      runRound: options.runRound,
      logger: options.logger,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
  const outcome = bisection?.plan.outcome ? describeOutcomeShort(bisection) : null;
  // A state named for this run only (--good) is still the watch's: its good commit moves by the same rule.
  const next = advanceWatchState(state, { good: base.good, head, judgement, outcome, change, now: options.now() });
  return { base, head, card, judgement, change, state: next, bisection };
}

/** The bisection's conclusion in a line, for the state file. */
export function describeOutcomeShort(bisection: LocalBisection): string {
  const outcome = bisection.plan.outcome;
  const sha = (index: number): string => bisection.commits[index]?.sha.slice(0, 12) ?? "?";
  switch (outcome?.kind) {
    case "single":
      return `single merge ${sha(outcome.firstBad)} (${Math.round(outcome.share.value * 100)}% of the drift)`;
    case "gradual":
      return `gradual drift over ${sha(outcome.from)}..${sha(outcome.to)}`;
    case "range":
      return `range ${sha(outcome.from)}..${sha(outcome.to)} (${sha(outcome.unresolved)} unresolved)`;
    case "no-drift":
      return "no drift to bisect";
    default:
      return "unfinished";
  }
}
