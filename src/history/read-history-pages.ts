import { listLeaderboard, readLeaderboardIssue } from "../store/card-history.js";
import {
  type OpenPullVerdict,
  type RunnerCalibration,
  listMainRoundCardIds,
  listOpenPullVerdicts,
  listRunCardIds,
  listRunnerCalibrations,
} from "../store/card-documents.js";
import type { Queryable } from "../store/database.js";
import { type MainRoundKind, listBisections, listChangePoints, listMainScenarios, listMainSeries } from "../store/main-series.js";

/** A point of main's trend as the page draws it. */
export interface TrendPoint {
  roundId: number;
  kind: MainRoundKind;
  headSha: string;
  /** When the head was committed (ISO 8601), or null when the round did not say. */
  committedAt: string | null;
  score: number | null;
  low: number | null;
  high: number | null;
  cardId: string | null;
  runUrl: string | null;
  bisectionId: number | null;
  failureKind: string | null;
  /** The change-point method found a change starting at this round. */
  changePoint: { pValue: number; change: number } | null;
}

export interface ScenarioTrend {
  /** Null for a round without scenarios. */
  scenario: string | null;
  points: TrendPoint[];
}

export interface BisectionMark {
  id: number;
  scenario: string | null;
  status: "running" | "done" | "abandoned";
  trigger: string;
  good: string;
  bad: string;
  /** What it found, in words (the first bad commit, a gradual change, a range, no drift), or null while it runs. */
  finding: string | null;
  startedAt: Date;
}

export interface LeaderboardRow {
  pullRequest: number;
  headSha: string;
  roundScore: number | null;
  interval: { low: number; high: number } | null;
  passed: boolean;
  failureKind: string | null;
  runs: number;
  commits: number;
  cardId: string | null;
}

export interface RepositoryPageData {
  repository: string;
  trends: ScenarioTrend[];
  bisections: BisectionMark[];
  openPulls: OpenPullVerdict[];
  /** Null where the repository has no leaderboard (`leaderboard: true` never posted one). */
  leaderboard: LeaderboardRow[] | null;
}

/** The most points of one scenario the page draws: the newest this many. */
export const MAX_TREND_POINTS = 1_000;

function describeFinding(outcome: { kind: string; [field: string]: unknown } | null, commits: readonly string[]): string | null {
  if (!outcome) return null;
  const commit = (field: string): string => {
    const index = outcome[field];
    return typeof index === "number" ? (commits[index] ?? `#${index}`).slice(0, 12) : "?";
  };
  switch (outcome.kind) {
    case "single":
      return `first bad commit ${commit("firstBad")} (against its parent ${commit("parent")})`;
    case "gradual":
      return `no single merge: a gradual change from ${commit("from")} to ${commit("to")}`;
    case "range":
      return `the first bad commit lies after ${commit("from")}, up to ${commit("to")}`;
    case "no-drift":
      return "no slowdown of the followed scenario over the range";
    default:
      return outcome.kind;
  }
}

/** Everything the repository page shows, from the store: main's trend per scenario, bisections, open pull requests, the leaderboard. */
export async function readRepositoryPage(queryable: Queryable, repository: string): Promise<RepositoryPageData> {
  const [scenarios, changePoints, bisections, cardIds, openPulls, leaderboardIssue] = await Promise.all([
    listMainScenarios(queryable, repository),
    listChangePoints(queryable, repository),
    listBisections(queryable, repository),
    listMainRoundCardIds(queryable, repository),
    listOpenPullVerdicts(queryable, repository),
    readLeaderboardIssue(queryable, repository),
  ]);
  const trends = await Promise.all(
    scenarios.map(async (scenario): Promise<ScenarioTrend> => {
      const series = await listMainSeries(queryable, { repository, scenario, limit: MAX_TREND_POINTS });
      const changes = new Map(
        changePoints.filter((point) => point.scenario === scenario).map((point) => [point.firstRoundId, point] as const),
      );
      return {
        scenario,
        points: series.map((point) => {
          const change = changes.get(point.roundId);
          return {
            roundId: point.roundId,
            kind: point.kind,
            headSha: point.headSha,
            committedAt: point.headCommittedAt ? point.headCommittedAt.toISOString() : null,
            score: point.score,
            low: point.interval?.low ?? null,
            high: point.interval?.high ?? null,
            cardId: cardIds.get(point.roundId) ?? null,
            runUrl: point.runUrl,
            bisectionId: point.bisectionId,
            failureKind: point.failureKind,
            changePoint: change ? { pValue: change.pValue, change: change.change } : null,
          };
        }),
      };
    }),
  );
  let leaderboard: LeaderboardRow[] | null = null;
  if (leaderboardIssue) {
    const entries = await listLeaderboard(queryable, repository);
    const ids = await listRunCardIds(
      queryable,
      repository,
      entries.map((entry) => ({ runId: entry.runId, runAttempt: entry.runAttempt })),
    );
    leaderboard = entries.map((entry) => ({
      pullRequest: entry.pullRequest,
      headSha: entry.headSha,
      roundScore: entry.roundScore,
      interval: entry.interval ? { low: entry.interval.low, high: entry.interval.high } : null,
      passed: entry.gate.passed,
      failureKind: entry.failure?.kind ?? null,
      runs: entry.runs,
      commits: entry.commits,
      cardId: ids.get(`${entry.runId}:${entry.runAttempt}`) ?? null,
    }));
  }
  return {
    repository: repository.toLowerCase(),
    trends,
    bisections: bisections.map((bisection) => ({
      id: bisection.id,
      scenario: bisection.scenario,
      status: bisection.status,
      trigger: bisection.trigger,
      good: bisection.good,
      bad: bisection.bad,
      finding: describeFinding(bisection.outcome, bisection.commits),
      startedAt: bisection.startedAt,
    })),
    openPulls,
    leaderboard,
  };
}

export interface RunnerPageData {
  repository: string;
  calibrations: RunnerCalibration[];
}

/** The runner page's figures: every calibration the repository's rounds used, by runner. */
export async function readRunnerPage(queryable: Queryable, repository: string): Promise<RunnerPageData> {
  return { repository: repository.toLowerCase(), calibrations: await listRunnerCalibrations(queryable, repository) };
}
