import type { Queryable } from "./database.js";

/*
 * Main's series (migration 0005): every round the watch ran on the default branch, with its score per
 * scenario, the bisections and the change points found. What the change-point method reads, and what
 * the page of main's trend (#42) draws: one point per round and scenario (score and interval, linking
 * its run's card), the change points and bisections marked on it. Repositories are kept lower-cased,
 * as in speedgate.cards.
 */

/** A drift round (main's head against the good commit), a bisection's probe or parent round, or a merge against its parent. */
export type MainRoundKind = "drift" | "probe" | "parent" | "merge";

export interface MainRoundRecord {
  repository: string;
  kind: MainRoundKind;
  baseSha: string;
  headSha: string;
  /** When the head was committed (ISO 8601): the series' order. */
  headCommittedAt: string | null;
  bisectionId: number | null;
  stepKey: string | null;
  runId: number;
  runAttempt: number;
  runUrl: string | null;
  runner: string | null;
  gpu: string | null;
  engine: string | null;
  failureKind: string | null;
  cardCreatedAt: string | null;
  /** Per scenario (null: a round without scenarios); a score of null when the round scored nothing for it. */
  scores: readonly { scenario: string | null; score: number | null; interval: { low: number; high: number } | null }[];
}

/** One point of a scenario's series: a round's score for that scenario, where its card is, and what it belonged to. */
export interface MainSeriesPoint {
  roundId: number;
  kind: MainRoundKind;
  baseSha: string;
  headSha: string;
  headCommittedAt: Date | null;
  score: number | null;
  interval: { low: number; high: number } | null;
  bisectionId: number | null;
  stepKey: string | null;
  runUrl: string | null;
  runner: string | null;
  failureKind: string | null;
  recordedAt: Date;
}

const scenarioKey = (scenario: string | null): string => scenario ?? "";

/**
 * Stores a round of main and its scores; the same run's attempt stored again (a redelivery) replaces
 * its scores and keeps its id. Returns the round's id.
 */
export async function recordMainRound(queryable: Queryable, record: MainRoundRecord): Promise<number> {
  const { rows } = await queryable.query<{ id: string }>(
    `INSERT INTO speedgate.main_rounds (
       repository, kind, base_sha, head_sha, head_committed_at, bisection_id, step_key, run_id, run_attempt, run_url,
       runner, gpu, engine, failure_kind, card_created_at
     ) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)
     ON CONFLICT (repository, run_id, run_attempt) DO UPDATE SET
       kind = EXCLUDED.kind, base_sha = EXCLUDED.base_sha, head_sha = EXCLUDED.head_sha,
       head_committed_at = EXCLUDED.head_committed_at, bisection_id = EXCLUDED.bisection_id, step_key = EXCLUDED.step_key,
       run_url = EXCLUDED.run_url, runner = EXCLUDED.runner, gpu = EXCLUDED.gpu, engine = EXCLUDED.engine,
       failure_kind = EXCLUDED.failure_kind, card_created_at = EXCLUDED.card_created_at
     RETURNING id`,
    [
      record.repository.toLowerCase(),
      record.kind,
      record.baseSha,
      record.headSha,
      record.headCommittedAt,
      record.bisectionId,
      record.stepKey,
      record.runId,
      record.runAttempt,
      record.runUrl,
      record.runner,
      record.gpu,
      record.engine,
      record.failureKind,
      record.cardCreatedAt,
    ],
  );
  const id = Number(rows[0]?.id);
  await queryable.query("DELETE FROM speedgate.main_round_scores WHERE round_id = $1", [id]);
  for (const entry of record.scores) {
    await queryable.query(
      `INSERT INTO speedgate.main_round_scores (round_id, scenario, score, interval_low, interval_high) VALUES ($1,$2,$3,$4,$5)`,
      [id, scenarioKey(entry.scenario), entry.score, entry.interval?.low ?? null, entry.interval?.high ?? null],
    );
  }
  return id;
}

interface PointRow {
  id: string;
  kind: MainRoundKind;
  base_sha: string;
  head_sha: string;
  head_committed_at: Date | null;
  score: number | null;
  interval_low: number | null;
  interval_high: number | null;
  bisection_id: string | null;
  step_key: string | null;
  run_url: string | null;
  runner: string | null;
  failure_kind: string | null;
  recorded_at: Date;
}

/**
 * One scenario's series in main's order (the head's commit time, then the order stored), oldest first:
 * the points of the trend page and the change-point method's input. `kinds` narrows it (the change-point
 * method reads drift rounds only: a probe's base is the same good commit, but its head is an older main).
 */
export async function listMainSeries(
  queryable: Queryable,
  query: { repository: string; scenario: string | null; kinds?: readonly MainRoundKind[]; limit?: number },
): Promise<MainSeriesPoint[]> {
  const kinds = query.kinds ?? ["drift", "probe", "parent", "merge"];
  const { rows } = await queryable.query<PointRow>(
    `SELECT r.id, r.kind, r.base_sha, r.head_sha, r.head_committed_at, s.score, s.interval_low, s.interval_high,
            r.bisection_id, r.step_key, r.run_url, r.runner, r.failure_kind, r.recorded_at
       FROM speedgate.main_rounds r
       JOIN speedgate.main_round_scores s ON s.round_id = r.id AND s.scenario = $2
      WHERE r.repository = $1 AND r.kind = ANY($3::text[])
      ORDER BY r.head_committed_at ASC NULLS LAST, r.id ASC
      LIMIT $4`,
    [query.repository.toLowerCase(), scenarioKey(query.scenario), [...kinds], query.limit ?? 1000],
  );
  return rows.map((row) => ({
    roundId: Number(row.id),
    kind: row.kind,
    baseSha: row.base_sha,
    headSha: row.head_sha,
    headCommittedAt: row.head_committed_at,
    score: row.score,
    interval: row.interval_low !== null && row.interval_high !== null ? { low: row.interval_low, high: row.interval_high } : null,
    bisectionId: row.bisection_id === null ? null : Number(row.bisection_id),
    stepKey: row.step_key,
    runUrl: row.run_url,
    runner: row.runner,
    failureKind: row.failure_kind,
    recordedAt: row.recorded_at,
  }));
}

/** The scenarios main's series has, for the trend page's list. */
export async function listMainScenarios(queryable: Queryable, repository: string): Promise<(string | null)[]> {
  const { rows } = await queryable.query<{ scenario: string }>(
    `SELECT DISTINCT s.scenario FROM speedgate.main_round_scores s JOIN speedgate.main_rounds r ON r.id = s.round_id
      WHERE r.repository = $1 ORDER BY s.scenario`,
    [repository.toLowerCase()],
  );
  return rows.map((row) => (row.scenario === "" ? null : row.scenario));
}

/** A bisection's outcome as stored: src/watch/plan-bisection.ts's BisectionOutcome (a floor beside this one), kept as JSON. */
export interface StoredOutcome {
  kind: string;
  [field: string]: unknown;
}

export type BisectionTrigger = "drift" | "change-point" | "manual";

export interface StoredBisection {
  id: number;
  repository: string;
  good: string;
  bad: string;
  scenario: string | null;
  trigger: BisectionTrigger;
  status: "running" | "done" | "abandoned";
  commits: string[];
  outcome: StoredOutcome | null;
  trackingIssue: number | null;
  startedAt: Date;
  finishedAt: Date | null;
}

/** Another bisection of the repository is running: one at a time, so the runners are not split between two. */
export class BisectionRunningError extends Error {
  constructor(readonly repository: string) {
    super(`${repository}: a bisection is already running; it must end (or be abandoned) before another starts`);
    this.name = "BisectionRunningError";
  }
}

/** Starts a bisection of `commits` (main's first-parent range, good first); refused while another of the repository runs. */
export async function startBisection(
  queryable: Queryable,
  bisection: { repository: string; commits: readonly string[]; scenario: string | null; trigger: BisectionTrigger },
): Promise<number> {
  const good = bisection.commits[0];
  const bad = bisection.commits.at(-1);
  if (!good || !bad || bisection.commits.length < 2) throw new Error("startBisection: the range needs the good and the bad commit");
  const { rows } = await queryable.query<{ id: string }>(
    `INSERT INTO speedgate.bisections (repository, good_sha, bad_sha, scenario, trigger, commits)
     VALUES ($1,$2,$3,$4,$5,$6::jsonb)
     ON CONFLICT (repository) WHERE status = 'running' DO NOTHING
     RETURNING id`,
    [bisection.repository.toLowerCase(), good, bad, scenarioKey(bisection.scenario), bisection.trigger, JSON.stringify(bisection.commits)],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new BisectionRunningError(bisection.repository.toLowerCase());
  return Number(id);
}

/** Ends a bisection with its outcome (or abandons it without one), and records its tracking issue when it has one. */
export async function finishBisection(
  queryable: Queryable,
  id: number,
  end: { outcome: StoredOutcome | null; status: "done" | "abandoned"; trackingIssue?: number | null },
): Promise<void> {
  await queryable.query(
    `UPDATE speedgate.bisections SET status = $2, outcome = $3::jsonb, finished_at = now(),
            tracking_issue = COALESCE($4, tracking_issue) WHERE id = $1`,
    [id, end.status, end.outcome === null ? null : JSON.stringify(end.outcome), end.trackingIssue ?? null],
  );
}

interface BisectionRow {
  id: string;
  repository: string;
  good_sha: string;
  bad_sha: string;
  scenario: string;
  trigger: BisectionTrigger;
  status: "running" | "done" | "abandoned";
  commits: string[];
  outcome: StoredOutcome | null;
  tracking_issue: number | null;
  started_at: Date;
  finished_at: Date | null;
}

/** The repository's bisections, newest first: the marks on the trend page, and the one running. */
export async function listBisections(queryable: Queryable, repository: string, limit = 100): Promise<StoredBisection[]> {
  const { rows } = await queryable.query<BisectionRow>(
    `SELECT id, repository, good_sha, bad_sha, scenario, trigger, status, commits, outcome, tracking_issue, started_at, finished_at
       FROM speedgate.bisections WHERE repository = $1 ORDER BY id DESC LIMIT $2`,
    [repository.toLowerCase(), limit],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    repository: row.repository,
    good: row.good_sha,
    bad: row.bad_sha,
    scenario: row.scenario === "" ? null : row.scenario,
    trigger: row.trigger,
    status: row.status,
    commits: row.commits,
    outcome: row.outcome,
    trackingIssue: row.tracking_issue,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  }));
}

export interface MainChangePoint {
  id: number;
  scenario: string | null;
  firstRoundId: number;
  pValue: number;
  change: number;
  bisectionId: number | null;
  foundAt: Date;
}

/** Records a change point once (the same first round of the same scenario again is a no-op); true when it is new. */
export async function recordChangePoint(
  queryable: Queryable,
  point: { repository: string; scenario: string | null; firstRoundId: number; pValue: number; change: number; bisectionId: number | null },
): Promise<boolean> {
  const { rowCount } = await queryable.query(
    `INSERT INTO speedgate.main_change_points (repository, scenario, first_round_id, p_value, change, bisection_id)
     VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (repository, scenario, first_round_id) DO NOTHING`,
    [point.repository.toLowerCase(), scenarioKey(point.scenario), point.firstRoundId, point.pValue, point.change, point.bisectionId],
  );
  return (rowCount ?? 0) > 0;
}

/** The change points found in the repository's series, oldest first: the marks on the trend page. */
export async function listChangePoints(queryable: Queryable, repository: string): Promise<MainChangePoint[]> {
  const { rows } = await queryable.query<{
    id: string;
    scenario: string;
    first_round_id: string;
    p_value: number;
    change: number;
    bisection_id: string | null;
    found_at: Date;
  }>(
    `SELECT id, scenario, first_round_id, p_value, change, bisection_id, found_at
       FROM speedgate.main_change_points WHERE repository = $1 ORDER BY id`,
    [repository.toLowerCase()],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    scenario: row.scenario === "" ? null : row.scenario,
    firstRoundId: Number(row.first_round_id),
    pValue: row.p_value,
    change: row.change,
    bisectionId: row.bisection_id === null ? null : Number(row.bisection_id),
    foundAt: row.found_at,
  }));
}

/** One bisection, or null when there is none by that id. */
export async function readBisection(queryable: Queryable, id: number): Promise<StoredBisection | null> {
  const { rows } = await queryable.query<{ repository: string }>("SELECT repository FROM speedgate.bisections WHERE id = $1", [id]);
  const repository = rows[0]?.repository;
  if (repository === undefined) return null;
  const all = await listBisections(queryable, repository, 1_000);
  return all.find((bisection) => bisection.id === id) ?? null;
}

/** A round stored for a bisection (its range round, its probes and parent rounds), with every scenario's score. */
export interface BisectionRound {
  roundId: number;
  kind: MainRoundKind;
  stepKey: string | null;
  baseSha: string;
  headSha: string;
  runId: number;
  runAttempt: number;
  runUrl: string | null;
  runner: string | null;
  failureKind: string | null;
  scores: { scenario: string | null; score: number | null; interval: { low: number; high: number } | null }[];
}

/** The rounds stored for a bisection, in the order stored: what the app recomputes the plan from after each card or a restart. */
export async function listBisectionRounds(queryable: Queryable, bisectionId: number): Promise<BisectionRound[]> {
  return await selectRounds(queryable, "r.bisection_id = $1", [bisectionId]);
}

/** A merge's rounds against its parent (watch.everyMerge), in the order stored: what the app judges the merge from. */
export async function listMergeRounds(queryable: Queryable, repository: string, headSha: string): Promise<BisectionRound[]> {
  return await selectRounds(queryable, "r.repository = $1 AND r.kind = 'merge' AND r.head_sha = $2", [repository.toLowerCase(), headSha]);
}

async function selectRounds(queryable: Queryable, where: string, values: unknown[]): Promise<BisectionRound[]> {
  const { rows } = await queryable.query<{
    id: string;
    kind: MainRoundKind;
    step_key: string | null;
    base_sha: string;
    head_sha: string;
    run_id: string;
    run_attempt: number;
    run_url: string | null;
    runner: string | null;
    failure_kind: string | null;
    scenario: string | null;
    score: number | null;
    interval_low: number | null;
    interval_high: number | null;
  }>(
    `SELECT r.id, r.kind, r.step_key, r.base_sha, r.head_sha, r.run_id, r.run_attempt, r.run_url, r.runner, r.failure_kind,
            s.scenario, s.score, s.interval_low, s.interval_high
       FROM speedgate.main_rounds r LEFT JOIN speedgate.main_round_scores s ON s.round_id = r.id
      WHERE ${where} ORDER BY r.id, s.scenario`,
    values,
  );
  const rounds = new Map<number, BisectionRound>();
  for (const row of rows) {
    const id = Number(row.id);
    let round = rounds.get(id);
    if (!round) {
      round = {
        roundId: id,
        kind: row.kind,
        stepKey: row.step_key,
        baseSha: row.base_sha,
        headSha: row.head_sha,
        runId: Number(row.run_id),
        runAttempt: row.run_attempt,
        runUrl: row.run_url,
        runner: row.runner,
        failureKind: row.failure_kind,
        scores: [],
      };
      rounds.set(id, round);
    }
    if (row.scenario !== null) {
      round.scores.push({
        scenario: row.scenario === "" ? null : row.scenario,
        score: row.score,
        interval: row.interval_low !== null && row.interval_high !== null ? { low: row.interval_low, high: row.interval_high } : null,
      });
    }
  }
  return [...rounds.values()];
}
