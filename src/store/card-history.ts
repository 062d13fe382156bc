import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { Queryable } from "./database.js";
import { GATE_MODES, type GateMode } from "../scoring/evaluate-gate.js";
import { combineScenarioGates } from "../scoring/combine-scenario-gates.js";
import { readScenarioGate } from "../scorecard/read-scenario-gate.js";

/*
 * speedgate.cards: one row per card the app posted (a run's attempt), for the trend of a pull
 * request's commits, the leaderboard and `speedgate history`. Repositories are kept lower-cased.
 */

/** The schema version of speedgate.cards as this reads it (migration 0004 added the scenario counts): a reader needs at least this. */
export const CARD_HISTORY_SCHEMA_VERSION = 4;

export interface CardOrigin {
  repository: string;
  pullRequest: number;
  headSha: string;
  runId: number;
  runAttempt: number;
  runUrl: string | null;
}

export interface CardRecord extends CardOrigin {
  roundScore: number | null;
  interval: { low: number; high: number; confidence: number } | null;
  gate: { passed: boolean; minRoundScore: number; use: GateMode };
  /** A round with scenarios: how many it had and how many passed (their own bar and gate.maxRegression); null without scenarios. */
  scenarios: { total: number; passed: number } | null;
  failure: { kind: string; engine: string; stage: string } | null;
  imageDigest: string | null;
  patchHash: string | null;
  runner: string | null;
  gpu: string | null;
  engine: string | null;
  speedgateVersion: string | null;
  /** When the action wrote the card (the card says so; informative). */
  cardCreatedAt: string | null;
}

export interface StoredCard extends CardRecord {
  id: number;
  /** When the app stored it: the order of the history. */
  recordedAt: Date;
}

/** A stored rule; a value this version does not know reads as the plain round-score rule, the oldest one. */
function parseGateMode(stored: string): GateMode {
  return GATE_MODES.find((mode) => mode === stored) ?? "round-score";
}

/** What a card says of itself, for its row: everything but where it was posted. */
export type CardFacts = Omit<CardRecord, keyof CardOrigin>;

/** The row for a card the app is posting: the card as re-gated by the app, the origin from GitHub's own data. */
export function cardRecordFrom(card: Scorecard, origin: CardOrigin): CardRecord {
  return { ...cardFactsFrom(card), ...origin, repository: origin.repository.toLowerCase() };
}

/** How many of a round's scenarios there were and how many passed, as the combined gate judged them. */
function countPassedScenarios(
  scenarios: NonNullable<Scorecard["scenarios"]>,
  maxRegression: number | null,
): { total: number; passed: number } {
  const { judgements } = combineScenarioGates(scenarios.map(readScenarioGate), { maxRegression });
  return { total: judgements.length, passed: judgements.filter((judgement) => judgement.passed).length };
}

/** The facts of a re-gated card (computed where the card is read, off the app's event loop). */
export function cardFactsFrom(card: Scorecard): CardFacts {
  const createdAt = Date.parse(card.createdAt);
  return {
    roundScore: card.roundScore,
    interval: card.scoreInterval,
    gate: { passed: card.gate.passed, minRoundScore: card.gate.minRoundScore, use: card.gate.use },
    scenarios: card.scenarios ? countPassedScenarios(card.scenarios, card.gate.maxRegression ?? null) : null,
    failure: card.failure ? { kind: card.failure.kind, engine: card.failure.engine, stage: card.failure.stage } : null,
    imageDigest: card.provenance.imageDigest,
    patchHash: card.provenance.patchHash,
    runner: card.provenance.runner,
    gpu: card.provenance.gpu,
    engine: card.engine,
    speedgateVersion: card.speedgateVersion,
    cardCreatedAt: Number.isNaN(createdAt) ? null : new Date(createdAt).toISOString(),
  };
}

/** Stores a card; the same run's attempt stored again (a redelivery) replaces its row. */
export async function recordCard(queryable: Queryable, record: CardRecord): Promise<void> {
  await queryable.query(
    `INSERT INTO speedgate.cards (
       repository, pull_request, head_sha, run_id, run_attempt, run_url,
       round_score, interval_low, interval_high, interval_confidence,
       gate_passed, gate_min_round_score, gate_use,
       failure_kind, failure_engine, failure_stage,
       image_digest, patch_hash, runner, gpu, engine, speedgate_version, card_created_at,
       scenarios_total, scenarios_passed
     ) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25)
     ON CONFLICT (repository, run_id, run_attempt) DO UPDATE SET
       pull_request = EXCLUDED.pull_request, head_sha = EXCLUDED.head_sha, run_url = EXCLUDED.run_url,
       round_score = EXCLUDED.round_score, interval_low = EXCLUDED.interval_low, interval_high = EXCLUDED.interval_high,
       interval_confidence = EXCLUDED.interval_confidence, gate_passed = EXCLUDED.gate_passed,
       gate_min_round_score = EXCLUDED.gate_min_round_score, gate_use = EXCLUDED.gate_use,
       failure_kind = EXCLUDED.failure_kind, failure_engine = EXCLUDED.failure_engine, failure_stage = EXCLUDED.failure_stage,
       image_digest = EXCLUDED.image_digest, patch_hash = EXCLUDED.patch_hash, runner = EXCLUDED.runner, gpu = EXCLUDED.gpu,
       engine = EXCLUDED.engine, speedgate_version = EXCLUDED.speedgate_version, card_created_at = EXCLUDED.card_created_at,
       scenarios_total = EXCLUDED.scenarios_total, scenarios_passed = EXCLUDED.scenarios_passed`,
    [
      record.repository.toLowerCase(),
      record.pullRequest,
      record.headSha,
      record.runId,
      record.runAttempt,
      record.runUrl,
      record.roundScore,
      record.interval?.low ?? null,
      record.interval?.high ?? null,
      record.interval?.confidence ?? null,
      record.gate.passed,
      record.gate.minRoundScore,
      record.gate.use,
      record.failure?.kind ?? null,
      record.failure?.engine ?? null,
      record.failure?.stage ?? null,
      record.imageDigest,
      record.patchHash,
      record.runner,
      record.gpu,
      record.engine,
      record.speedgateVersion,
      record.cardCreatedAt,
      record.scenarios?.total ?? null,
      record.scenarios?.passed ?? null,
    ],
  );
}

interface CardRow {
  id: string;
  repository: string;
  pull_request: number;
  head_sha: string;
  run_id: string;
  run_attempt: number;
  run_url: string | null;
  round_score: number | null;
  interval_low: number | null;
  interval_high: number | null;
  interval_confidence: number | null;
  gate_passed: boolean;
  gate_min_round_score: number;
  gate_use: string;
  failure_kind: string | null;
  failure_engine: string | null;
  failure_stage: string | null;
  image_digest: string | null;
  patch_hash: string | null;
  runner: string | null;
  gpu: string | null;
  engine: string | null;
  speedgate_version: string | null;
  card_created_at: Date | null;
  scenarios_total: number | null;
  scenarios_passed: number | null;
  recorded_at: Date;
}

const COLUMNS = `id, repository, pull_request, head_sha, run_id, run_attempt, run_url, round_score, interval_low, interval_high,
  interval_confidence, gate_passed, gate_min_round_score, gate_use, failure_kind, failure_engine, failure_stage,
  image_digest, patch_hash, runner, gpu, engine, speedgate_version, card_created_at, scenarios_total, scenarios_passed, recorded_at`;

function fromRow(row: CardRow): StoredCard {
  return {
    id: Number(row.id),
    repository: row.repository,
    pullRequest: row.pull_request,
    headSha: row.head_sha,
    runId: Number(row.run_id),
    runAttempt: row.run_attempt,
    runUrl: row.run_url,
    roundScore: row.round_score,
    interval:
      row.interval_low !== null && row.interval_high !== null && row.interval_confidence !== null
        ? { low: row.interval_low, high: row.interval_high, confidence: row.interval_confidence }
        : null,
    gate: { passed: row.gate_passed, minRoundScore: row.gate_min_round_score, use: parseGateMode(row.gate_use) },
    scenarios:
      row.scenarios_total !== null && row.scenarios_passed !== null ? { total: row.scenarios_total, passed: row.scenarios_passed } : null,
    failure:
      row.failure_kind !== null ? { kind: row.failure_kind, engine: row.failure_engine ?? "", stage: row.failure_stage ?? "" } : null,
    imageDigest: row.image_digest,
    patchHash: row.patch_hash,
    runner: row.runner,
    gpu: row.gpu,
    engine: row.engine,
    speedgateVersion: row.speedgate_version,
    cardCreatedAt: row.card_created_at ? row.card_created_at.toISOString() : null,
    recordedAt: row.recorded_at,
  };
}

export interface CardQuery {
  repository: string;
  pullRequest?: number;
  /** The newest this many, still listed oldest first. */
  limit?: number;
}

/** A repository's (or one pull request's) cards, oldest first. */
export async function listCards(queryable: Queryable, query: CardQuery): Promise<StoredCard[]> {
  const { rows } = await queryable.query<CardRow>(
    `SELECT * FROM (
       SELECT ${COLUMNS} FROM speedgate.cards
       WHERE repository = $1 AND ($2::integer IS NULL OR pull_request = $2)
       ORDER BY recorded_at DESC, id DESC
       LIMIT $3
     ) newest ORDER BY recorded_at, id`,
    [query.repository.toLowerCase(), query.pullRequest ?? null, query.limit ?? null],
  );
  return rows.map(fromRow);
}

/**
 * One card per commit of a pull request, in the order the commits were first scored: each commit's
 * newest card (a /rescore of the same commit replaces the earlier score). The trend line's points.
 */
export async function listCommitTrend(queryable: Queryable, repository: string, pullRequest: number): Promise<StoredCard[]> {
  const { rows } = await queryable.query<CardRow>(
    `SELECT ${COLUMNS.split(",")
      .map((column) => `newest.${column.trim()}`)
      .join(", ")}
     FROM (
       SELECT DISTINCT ON (head_sha) ${COLUMNS},
         min(recorded_at) OVER (PARTITION BY head_sha) AS first_scored
       FROM speedgate.cards
       WHERE repository = $1 AND pull_request = $2
       ORDER BY head_sha, recorded_at DESC, id DESC
     ) newest
     ORDER BY newest.first_scored, newest.id`,
    [repository.toLowerCase(), pullRequest],
  );
  return rows.map(fromRow);
}

/** A leaderboard row: the card whose score stands for its pull request, and the runs and commits it was chosen from. */
export type LeaderboardCard = StoredCard & { runs: number; commits: number };

/**
 * One row per open pull request (one with no recorded state counts as open), best first: of all the
 * runs of the pull request, every commit's, the card with the lower median round score (a failed run
 * counts as the lowest). Keeping each pull request's best score ever let re-runs of the same code fish
 * the noise upward; ranking by the newest commit's runs alone let an author whose commits are scored
 * automatically push no-op commits, each a fresh draw, until one was lucky. Pooled, each such commit
 * adds one more run to the median, which moves only when most of the pull request's runs do: a real
 * speed-up shows once its commits' runs are most of them. Commits are told apart by the SHA the app
 * resolved through the API, never by anything the artifact says.
 */
export async function listLeaderboard(queryable: Queryable, repository: string): Promise<LeaderboardCard[]> {
  const { rows } = await queryable.query<CardRow & { runs: string; commits: string }>(
    `WITH open_cards AS (
       SELECT c.* FROM speedgate.cards c
       LEFT JOIN speedgate.pull_requests p ON p.repository = c.repository AND p.number = c.pull_request
       WHERE c.repository = $1 AND coalesce(p.state, 'open') = 'open'
     ), commits AS (
       SELECT pull_request, count(DISTINCT head_sha) AS commits FROM open_cards GROUP BY pull_request
     ), ranked AS (
       SELECT o.*,
         row_number() OVER (PARTITION BY o.pull_request ORDER BY o.round_score ASC NULLS FIRST, o.recorded_at, o.id) AS position,
         count(*) OVER (PARTITION BY o.pull_request) AS runs
       FROM open_cards o
     )
     SELECT ${COLUMNS.split(",")
       .map((column) => `ranked.${column.trim()}`)
       .join(", ")}, ranked.runs, commits.commits FROM ranked
     JOIN commits ON commits.pull_request = ranked.pull_request
     WHERE ranked.position = (ranked.runs + 1) / 2
     ORDER BY ranked.round_score DESC NULLS LAST, ranked.recorded_at, ranked.id`,
    [repository.toLowerCase()],
  );
  return rows.map((row) => ({ ...fromRow(row), runs: Number(row.runs), commits: Number(row.commits) }));
}

export async function recordPullRequestState(
  queryable: Queryable,
  state: { repository: string; number: number; state: "open" | "closed"; headSha: string | null },
): Promise<void> {
  await queryable.query(
    `INSERT INTO speedgate.pull_requests (repository, number, state, head_sha) VALUES ($1, $2, $3, $4)
     ON CONFLICT (repository, number) DO UPDATE
       SET state = EXCLUDED.state, head_sha = coalesce(EXCLUDED.head_sha, speedgate.pull_requests.head_sha), updated_at = now()`,
    [state.repository.toLowerCase(), state.number, state.state, state.headSha],
  );
}

/** The issue that holds a repository's leaderboard and whether it was pinned, or null before the first one was opened. */
export async function readLeaderboardIssue(queryable: Queryable, repository: string): Promise<{ number: number; pinned: boolean } | null> {
  const { rows } = await queryable.query<{ issue_number: number; pinned: boolean }>(
    "SELECT issue_number, pinned FROM speedgate.leaderboards WHERE repository = $1",
    [repository.toLowerCase()],
  );
  const row = rows[0];
  return row ? { number: row.issue_number, pinned: row.pinned } : null;
}

export async function recordLeaderboardIssue(
  queryable: Queryable,
  repository: string,
  issue: { number: number; pinned: boolean },
): Promise<void> {
  await queryable.query(
    `INSERT INTO speedgate.leaderboards (repository, issue_number, pinned) VALUES ($1, $2, $3)
     ON CONFLICT (repository) DO UPDATE SET issue_number = EXCLUDED.issue_number, pinned = EXCLUDED.pinned, updated_at = now()`,
    [repository.toLowerCase(), issue.number, issue.pinned],
  );
}

/** The pull requests of a repository that have cards, and whether each counts as open (no recorded state: open). */
export async function listScoredPullRequests(queryable: Queryable, repository: string): Promise<Array<{ number: number; open: boolean }>> {
  const { rows } = await queryable.query<{ number: number; open: boolean }>(
    `SELECT c.pull_request AS number, coalesce(p.state, 'open') = 'open' AS open
     FROM (SELECT DISTINCT pull_request FROM speedgate.cards WHERE repository = $1) c
     LEFT JOIN speedgate.pull_requests p ON p.repository = $1 AND p.number = c.pull_request
     ORDER BY c.pull_request`,
    [repository.toLowerCase()],
  );
  return rows;
}
