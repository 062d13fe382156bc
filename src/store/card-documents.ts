import { randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "fflate";
import type { Scorecard } from "../scorecard/scorecard-schema.js";
import type { Queryable } from "./database.js";

/*
 * speedgate.card_documents (migration 0006): each round's whole card, as the app re-gated it, under a
 * random id that is its page's URL (/cards/<id>). The comment folds and cuts a card to GitHub's limits;
 * the page shows all of it. The id is 128 random bits: nothing about a repository, a run or an order can
 * be counted to reach a private repository's card. Repositories are kept lower-cased, as in speedgate.cards.
 */

/** The schema version this module reads (migration 0006). */
export const CARD_DOCUMENTS_SCHEMA_VERSION = 6;

/** The id's form: 16 random bytes in base64url. A request naming anything else is refused before a query. */
const CARD_ID = /^[A-Za-z0-9_-]{22}$/;

export function isCardDocumentId(value: string): boolean {
  return CARD_ID.test(value);
}

/** The calibration a card's gate used, as the runner page lists it. */
export interface CardCalibrationFacts {
  runner: string | null;
  gpu: string | null;
  measuredAt: string;
  noiseFloor: number;
  detectableSpeedup: number;
}

export interface CardDocumentFacts {
  runner: string | null;
  gpu: string | null;
  calibration: CardCalibrationFacts | null;
}

/** What the runner page needs of a card, read where the card is (the app's worker, the CLI): never the stored JSON again. */
export function cardDocumentFactsFrom(card: Scorecard): CardDocumentFacts {
  const calibration = card.gate.calibration ?? card.scenarios?.find((scenario) => scenario.card.gate.calibration)?.card.gate.calibration;
  return {
    runner: card.provenance.runner,
    gpu: card.provenance.gpu,
    calibration: calibration
      ? {
          runner: calibration.runner,
          gpu: calibration.gpu,
          measuredAt: calibration.measuredAt,
          noiseFloor: calibration.noiseFloor,
          detectableSpeedup: calibration.detectableSpeedup,
        }
      : null,
  };
}

/** A card's JSON as the store keeps it, gzip-compressed (the app does it in its card worker, off the event loop). */
export function gzipCardJson(json: string): Uint8Array {
  return gzipSync(new TextEncoder().encode(json), { level: 6 });
}

export interface CardDocumentRecord {
  repository: string;
  runId: number;
  runAttempt: number;
  /** Null for a round of main (the watch's). */
  pullRequest: number | null;
  headSha: string;
  /** The card's JSON as the app re-gated it, or already gzip-compressed (gzipCardJson). */
  card: string | Uint8Array;
  facts: CardDocumentFacts;
}

/**
 * Stores a round's whole card and returns its page's id; the same run's attempt stored again (a
 * redelivery, a retried job) replaces the card and keeps the id, so a link already posted stays good.
 */
export async function recordCardDocument(queryable: Queryable, record: CardDocumentRecord): Promise<string> {
  const calibration = record.facts.calibration;
  const { rows } = await queryable.query<{ id: string }>(
    `INSERT INTO speedgate.card_documents (
       id, repository, run_id, run_attempt, pull_request, head_sha, card, runner, gpu,
       calibration_runner, calibration_gpu, calibration_measured_at, noise_floor, detectable_speedup
     ) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)
     ON CONFLICT (repository, run_id, run_attempt) DO UPDATE SET
       pull_request = EXCLUDED.pull_request, head_sha = EXCLUDED.head_sha, card = EXCLUDED.card,
       runner = EXCLUDED.runner, gpu = EXCLUDED.gpu, calibration_runner = EXCLUDED.calibration_runner,
       calibration_gpu = EXCLUDED.calibration_gpu, calibration_measured_at = EXCLUDED.calibration_measured_at,
       noise_floor = EXCLUDED.noise_floor, detectable_speedup = EXCLUDED.detectable_speedup
     RETURNING id`,
    [
      randomBytes(16).toString("base64url"),
      record.repository.toLowerCase(),
      record.runId,
      record.runAttempt,
      record.pullRequest,
      record.headSha,
      Buffer.from(typeof record.card === "string" ? gzipCardJson(record.card) : record.card),
      record.facts.runner,
      record.facts.gpu,
      calibration?.runner ?? null,
      calibration?.gpu ?? null,
      calibration?.measuredAt ?? null,
      calibration?.noiseFloor ?? null,
      calibration?.detectableSpeedup ?? null,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error("recordCardDocument: the database returned no id");
  return id;
}

export interface StoredCardDocument {
  id: string;
  repository: string;
  runId: number;
  runAttempt: number;
  pullRequest: number | null;
  headSha: string;
  cardJson: string;
  recordedAt: Date;
}

/** A card by its page's id, or null (an id of the wrong form is not even looked up). */
export async function readCardDocument(queryable: Queryable, id: string): Promise<StoredCardDocument | null> {
  if (!isCardDocumentId(id)) return null;
  const { rows } = await queryable.query<{
    id: string;
    repository: string;
    run_id: string;
    run_attempt: number;
    pull_request: number | null;
    head_sha: string;
    card: Buffer;
    recorded_at: Date;
  }>(
    `SELECT id, repository, run_id, run_attempt, pull_request, head_sha, card, recorded_at
       FROM speedgate.card_documents WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    repository: row.repository,
    runId: Number(row.run_id),
    runAttempt: row.run_attempt,
    pullRequest: row.pull_request,
    headSha: row.head_sha,
    cardJson: new TextDecoder().decode(gunzipSync(row.card)),
    recordedAt: row.recorded_at,
  };
}

/**
 * The card page of each of main's rounds that has one, by the round's id (main_rounds' run and attempt,
 * the key both tables share): the trend's points link them.
 */
export async function listMainRoundCardIds(queryable: Queryable, repository: string): Promise<Map<number, string>> {
  const { rows } = await queryable.query<{ round_id: string; id: string }>(
    // One probe of card_documents' unique index per round: a join, planned on statistics a bulk of new rows left stale,
    // compared every pair (330 ms for 1,000 rounds on PGlite).
    `SELECT round_id, id FROM (
       SELECT r.id AS round_id,
              (SELECT d.id FROM speedgate.card_documents d
                WHERE d.repository = r.repository AND d.run_id = r.run_id AND d.run_attempt = r.run_attempt) AS id
         FROM speedgate.main_rounds r WHERE r.repository = $1
     ) linked WHERE id IS NOT NULL`,
    [repository.toLowerCase()],
  );
  return new Map(rows.map((row) => [Number(row.round_id), row.id]));
}

/** An open pull request's newest card, as the repository page lists it. */
export interface OpenPullVerdict {
  pullRequest: number;
  headSha: string;
  roundScore: number | null;
  interval: { low: number; high: number } | null;
  passed: boolean;
  failureKind: string | null;
  scenarios: { total: number; passed: number } | null;
  recordedAt: Date;
  /** Its card page's id; null for a card stored before the app kept whole cards. */
  cardId: string | null;
}

/** Each open pull request's newest card (one with no recorded state counts as open), newest first. */
export async function listOpenPullVerdicts(queryable: Queryable, repository: string): Promise<OpenPullVerdict[]> {
  const { rows } = await queryable.query<{
    pull_request: number;
    head_sha: string;
    round_score: number | null;
    interval_low: number | null;
    interval_high: number | null;
    gate_passed: boolean;
    failure_kind: string | null;
    scenarios_total: number | null;
    scenarios_passed: number | null;
    recorded_at: Date;
    card_id: string | null;
  }>(
    `SELECT newest.*,
            (SELECT d.id FROM speedgate.card_documents d
              WHERE d.repository = newest.repository AND d.run_id = newest.run_id AND d.run_attempt = newest.run_attempt) AS card_id
       FROM (
       SELECT DISTINCT ON (c.pull_request) c.pull_request, c.head_sha, c.round_score, c.interval_low, c.interval_high, c.gate_passed,
              c.failure_kind, c.scenarios_total, c.scenarios_passed, c.recorded_at, c.run_id, c.run_attempt, c.repository
         FROM speedgate.cards c
         LEFT JOIN speedgate.pull_requests p ON p.repository = c.repository AND p.number = c.pull_request
        WHERE c.repository = $1 AND coalesce(p.state, 'open') = 'open'
        ORDER BY c.pull_request, c.recorded_at DESC, c.id DESC
     ) newest
     ORDER BY newest.recorded_at DESC, newest.pull_request DESC`,
    [repository.toLowerCase()],
  );
  return rows.map((row) => ({
    pullRequest: row.pull_request,
    headSha: row.head_sha,
    roundScore: row.round_score,
    interval: row.interval_low !== null && row.interval_high !== null ? { low: row.interval_low, high: row.interval_high } : null,
    passed: row.gate_passed,
    failureKind: row.failure_kind,
    scenarios:
      row.scenarios_total !== null && row.scenarios_passed !== null ? { total: row.scenarios_total, passed: row.scenarios_passed } : null,
    recordedAt: row.recorded_at,
    cardId: row.card_id,
  }));
}

/** One calibration of a runner, with the rounds that used it. */
export interface RunnerCalibration extends CardCalibrationFacts {
  /** The runner as the calibration names it, or the rounds' runner when it names none. */
  runner: string | null;
  rounds: number;
  firstUsedAt: Date;
  lastUsedAt: Date;
  /** The newest card that used it. */
  cardId: string;
}

/** Every calibration the repository's rounds used, by runner, oldest measurement first: the runner page. */
export async function listRunnerCalibrations(queryable: Queryable, repository: string): Promise<RunnerCalibration[]> {
  const { rows } = await queryable.query<{
    runner: string | null;
    gpu: string | null;
    measured_at: string;
    noise_floor: number;
    detectable_speedup: number;
    rounds: string;
    first_used: Date;
    last_used: Date;
    card_id: string;
  }>(
    `SELECT coalesce(calibration_runner, runner) AS runner, calibration_measured_at AS measured_at,
            (array_agg(coalesce(calibration_gpu, gpu) ORDER BY recorded_at DESC))[1] AS gpu,
            (array_agg(noise_floor ORDER BY recorded_at DESC))[1] AS noise_floor,
            (array_agg(detectable_speedup ORDER BY recorded_at DESC))[1] AS detectable_speedup,
            count(*) AS rounds, min(recorded_at) AS first_used, max(recorded_at) AS last_used,
            (array_agg(id ORDER BY recorded_at DESC))[1] AS card_id
       FROM speedgate.card_documents
      WHERE repository = $1 AND calibration_measured_at IS NOT NULL
      GROUP BY coalesce(calibration_runner, runner), calibration_measured_at
      ORDER BY runner NULLS LAST, measured_at`,
    [repository.toLowerCase()],
  );
  return rows.map((row) => ({
    runner: row.runner,
    gpu: row.gpu,
    measuredAt: row.measured_at,
    noiseFloor: row.noise_floor,
    detectableSpeedup: row.detectable_speedup,
    rounds: Number(row.rounds),
    firstUsedAt: row.first_used,
    lastUsedAt: row.last_used,
    cardId: row.card_id,
  }));
}

/** The card pages of the given runs, by `runId:runAttempt` (a run without a stored card is absent). */
export async function listRunCardIds(
  queryable: Queryable,
  repository: string,
  runs: readonly { runId: number; runAttempt: number }[],
): Promise<Map<string, string>> {
  if (runs.length === 0) return new Map();
  const { rows } = await queryable.query<{ run_id: string; run_attempt: number; id: string }>(
    `SELECT d.run_id, d.run_attempt, d.id FROM speedgate.card_documents d
       JOIN unnest($2::bigint[], $3::integer[]) AS wanted (run_id, run_attempt)
         ON wanted.run_id = d.run_id AND wanted.run_attempt = d.run_attempt
      WHERE d.repository = $1`,
    [repository.toLowerCase(), runs.map((run) => run.runId), runs.map((run) => run.runAttempt)],
  );
  return new Map(rows.map((row) => [`${row.run_id}:${row.run_attempt}`, row.id]));
}

/** The ids of every card the repository has a page for, oldest first (the static site writes one page each). */
export async function listCardDocumentIds(queryable: Queryable, repository: string): Promise<string[]> {
  const { rows } = await queryable.query<{ id: string }>(
    "SELECT id FROM speedgate.card_documents WHERE repository = $1 ORDER BY recorded_at, run_id, run_attempt",
    [repository.toLowerCase()],
  );
  return rows.map((row) => row.id);
}
