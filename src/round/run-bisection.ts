import { type FirstParentCommit, listFirstParentCommits } from "../git/list-first-parent-commits.js";
import type { Logger } from "../logger.js";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { RoundEstimate } from "../scoring/pool-round-estimates.js";
import { rangeOf } from "../watch/judge-drift.js";
import { type BisectionPlan, type BisectionSetup, type StepRecord, planBisection } from "../watch/plan-bisection.js";
import { findScenarioEstimate, readScenarioEstimates } from "../watch/scenario-estimates.js";
import type { CommitRoundRunner } from "./run-commit-round.js";

export interface LocalBisectionOptions {
  repoDir: string;
  good: string;
  bad: string;
  /** The scenario to follow; by default the one the range round shows slowest. */
  scenario?: string | null;
  /** The range round (bad against good) when the caller ran it already: the watch's drift round. */
  rangeCard?: Scorecard | null;
  maxRepeats: number;
  explainShare: number;
  runRound: CommitRoundRunner;
  logger: Logger;
  signal?: AbortSignal;
  /** Told of each round as it ends, the range round included (key "range"). */
  onRound?: (key: string, card: Scorecard) => Promise<void> | void;
}

export interface LocalBisection {
  commits: FirstParentCommit[];
  /** The scenario the bisection followed (null: a round without scenarios). */
  scenario: string | null;
  rangeCard: Scorecard;
  setup: BisectionSetup;
  records: StepRecord[];
  /** The cards of the steps, by step key. */
  cards: Map<string, Scorecard>;
  plan: BisectionPlan;
}

/** A bisection whose range round scored nothing for the followed scenario, so it has nothing to halve. */
export class RangeRoundFailedError extends Error {
  constructor(
    message: string,
    readonly card: Scorecard,
  ) {
    super(message);
    this.name = "RangeRoundFailedError";
  }
}

/** The scenario a bisection follows: the one named, else the range round's slowest among those slower than 1×. */
export function pickFollowedScenario(
  card: Scorecard,
  named: string | null | undefined,
): { name: string | null; drift: RoundEstimate } | null {
  const estimates = readScenarioEstimates(card);
  if (named !== undefined && named !== null) {
    const drift = findScenarioEstimate(estimates, named);
    return drift ? { name: named, drift } : null;
  }
  const slower = estimates
    .flatMap((entry) => (entry.estimate ? [{ name: entry.name, drift: entry.estimate }] : []))
    .filter((entry) => rangeOf(entry.drift).high < 1)
    .sort((a, b) => a.drift.score - b.drift.score);
  return slower[0] ?? estimates.flatMap((entry) => (entry.estimate ? [{ name: entry.name, drift: entry.estimate }] : []))[0] ?? null;
}

/**
 * The bisection on this machine (`speedgate bisect`, `speedgate watch --bisect`, the action's bisect
 * input): the range round unless given, then the plan's steps one round at a time, each a base/head round
 * through `runRound`, until the plan has an outcome.
 */
export async function runLocalBisection(options: LocalBisectionOptions): Promise<LocalBisection> {
  const commits = await listFirstParentCommits(options.repoDir, options.good, options.bad, options.signal);
  const shas = commits.map((commit) => commit.sha);
  const rangeCard =
    options.rangeCard ?? (await options.runRound({ base: options.good, head: options.bad, label: "the range round (bad against good)" }));
  if (!options.rangeCard) await options.onRound?.("range", rangeCard);
  const followed = pickFollowedScenario(rangeCard, options.scenario);
  if (!followed) {
    throw new RangeRoundFailedError(
      options.scenario
        ? `the range round has no score for scenario ${JSON.stringify(options.scenario)}: ` +
            "name one the round config has, or leave --scenario out"
        : "the range round scored nothing (see its card): there is no drift to bisect",
      rangeCard,
    );
  }
  const setup: BisectionSetup = {
    commits: shas,
    drift: followed.drift,
    maxRepeats: options.maxRepeats,
    explainShare: options.explainShare,
    parallel: 1,
  };
  const records: StepRecord[] = [];
  const cards = new Map<string, Scorecard>();
  let plan = planBisection(setup, records);
  while (!plan.outcome) {
    for (const step of plan.next) {
      if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error("cancelled");
      const card = await options.runRound({ base: step.base, head: step.head, label: `step ${step.key}` });
      cards.set(step.key, card);
      records.push({
        purpose: step.purpose,
        index: step.index,
        attempt: step.attempt,
        estimate: findScenarioEstimate(readScenarioEstimates(card), followed.name),
      });
      await options.onRound?.(step.key, card);
    }
    plan = planBisection(setup, records);
  }
  options.logger.info(`bisection of ${options.good.slice(0, 12)}..${options.bad.slice(0, 12)}: ${plan.outcome.kind}`);
  return { commits, scenario: followed.name, rangeCard, setup, records, cards, plan };
}
