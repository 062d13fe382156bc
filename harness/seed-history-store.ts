import { readFileSync } from "node:fs";
import type { Scorecard } from "../src/scorecard/scorecard-schema.js";
import { parseScorecardJson } from "../src/scorecard/read-scorecard.js";
import { cardRecordFrom, recordCard, recordLeaderboardIssue, recordPullRequestState } from "../src/store/card-history.js";
import { cardDocumentFactsFrom, recordCardDocument } from "../src/store/card-documents.js";
import type { Queryable } from "../src/store/database.js";
import { finishBisection, recordChangePoint, recordMainRound, startBisection } from "../src/store/main-series.js";
import { makeCard } from "./make-card.js";

/*
 * A store as the app fills it, for the history pages' tests, bench and screenshots: main's rounds as
 * the watch records them (each a card made through the real scoring rule, its score and interval the
 * series' point, its whole card kept), a slowdown two thirds of the way with its change point and the
 * bisection that found its commit, and pull requests' cards: the example cards the code generates
 * (examples/cards/), a calibrated one among them, each through the store's own write functions.
 */

export interface SeededHistory {
  repository: string;
  /** Main's rounds in order: the round's id, its commit, its card page's id and the card's figures. */
  mainRounds: { roundId: number; headSha: string; cardId: string; score: number | null; low: number | null; high: number | null }[];
  /** The first round after the slowdown (its change point). */
  changeRoundId: number;
  /** The bisection's probe rounds (each a commit of the range against the good one), in the order they ran. */
  probes: { roundId: number; headSha: string; cardId: string; score: number | null }[];
  /** The pull requests' cards by example name: the pull request, its card page's id, the card. */
  pulls: Map<string, { pullRequest: number; cardId: string; card: Scorecard; open: boolean }>;
}

const EXAMPLES = new URL("../examples/cards/", import.meta.url);

function readExample(name: string): Scorecard {
  return parseScorecardJson(readFileSync(new URL(`${name}.json`, EXAMPLES), "utf8"), `examples/cards/${name}.json`);
}

/** A commit SHA for round `index` of main: 40 hex digits, distinct per index. */
export function mainSha(index: number): string {
  return (index + 1).toString(16).padStart(8, "0").repeat(5);
}

/** A deterministic jitter in [-1, 1] (no Math.random: a seeded store is the same every run). */
function jitter(index: number, salt: number): number {
  const x = Math.sin(index * 12.9898 + salt * 78.233) * 43758.5453;
  return (x - Math.floor(x)) * 2 - 1;
}

/** The speed of main at round `index` of `count`: about 1.0 until two thirds of the way, about 0.88 after. */
function mainLevel(index: number, count: number): number {
  const base = index >= Math.floor((count * 2) / 3) ? 0.88 : 1.0;
  return Math.round((base * (1 + 0.02 * jitter(index, 1))) / 0.005) * 0.005;
}

const EARLIER_CALIBRATIONS = [
  { measuredAt: "2026-09-02T08:30:00.000Z", noiseFloor: 0.031, detectableSpeedup: 0.052 },
  { measuredAt: "2026-10-07T08:30:00.000Z", noiseFloor: 0.024, detectableSpeedup: 0.041 },
] as const;

const PULLS: readonly { name: string; pullRequest: number; open: boolean }[] = [
  { name: "passing-round", pullRequest: 101, open: true },
  { name: "scenarios-decode-regression", pullRequest: 102, open: true },
  { name: "candidate-cuda-oom", pullRequest: 103, open: true },
  { name: "calibrated-three-runs", pullRequest: 104, open: true },
  { name: "quality-drop", pullRequest: 105, open: false },
];

/** Seeds `repository` with `mainRounds` rounds of main and the example pull requests' cards. */
export async function seedHistoryStore(
  queryable: Queryable,
  options: { repository: string; mainRounds: number; start?: Date },
): Promise<SeededHistory> {
  const repository = options.repository.toLowerCase();
  const start = (options.start ?? new Date("2026-09-01T00:00:00Z")).getTime();
  const cards = new Map<number, { card: Scorecard; json: string }>();
  const cardAt = (level: number): { card: Scorecard; json: string } => {
    const known = cards.get(level);
    if (known) return known;
    const card = makeCard(Array.from({ length: 12 }, (_, prompt) => ({ speedup: level * (1 + 0.03 * jitter(prompt, level * 1000)) })));
    const made = { card, json: JSON.stringify(card) };
    cards.set(level, made);
    return made;
  };
  const good = mainSha(0);
  const mainRounds: SeededHistory["mainRounds"] = [];
  for (let index = 0; index < options.mainRounds; index++) {
    const { card, json } = cardAt(mainLevel(index, options.mainRounds));
    const headSha = mainSha(index + 1);
    const runId = 500_000 + index;
    const roundId = await recordMainRound(queryable, {
      repository,
      kind: "drift",
      baseSha: good,
      headSha,
      headCommittedAt: new Date(start + index * 3_600_000).toISOString(),
      bisectionId: null,
      stepKey: null,
      runId,
      runAttempt: 1,
      runUrl: `https://github.com/${repository}/actions/runs/${runId}`,
      runner: card.provenance.runner,
      gpu: card.provenance.gpu,
      engine: card.engine,
      failureKind: null,
      cardCreatedAt: card.createdAt,
      scores: [{ scenario: null, score: card.roundScore, interval: card.scoreInterval }],
    });
    const cardId = await recordCardDocument(queryable, {
      repository,
      runId,
      runAttempt: 1,
      pullRequest: null,
      headSha,
      card: json,
      facts: cardDocumentFactsFrom(card),
    });
    mainRounds.push({
      roundId,
      headSha,
      cardId,
      score: card.roundScore,
      low: card.scoreInterval?.low ?? null,
      high: card.scoreInterval?.high ?? null,
    });
  }
  const slow = Math.floor((options.mainRounds * 2) / 3);
  const changeRound = mainRounds[slow] ?? mainRounds.at(-1);
  if (!changeRound) throw new Error("seedHistoryStore: at least one round of main is needed");
  const commits = mainRounds.slice(Math.max(0, slow - 4), slow + 1).map((round) => round.headSha);
  const bisectionId =
    commits.length >= 2 ? await startBisection(queryable, { repository, commits, scenario: null, trigger: "change-point" }) : null;
  // The bisection's probes, as the watch records them: the middle of the range, then the half that holds the change.
  const probes: SeededHistory["probes"] = [];
  const range = mainRounds.slice(Math.max(0, slow - 4), slow + 1);
  for (const [step, offset] of [2, 3].entries()) {
    const probed = range[offset];
    if (bisectionId === null || !probed) continue;
    const index = mainRounds.indexOf(probed);
    const { card, json } = cardAt(mainLevel(index, options.mainRounds));
    const runId = 700_000 + step;
    const roundId = await recordMainRound(queryable, {
      repository,
      kind: "probe",
      baseSha: good,
      headSha: probed.headSha,
      headCommittedAt: new Date(start + index * 3_600_000).toISOString(),
      bisectionId,
      stepKey: `probe-${offset}-1`,
      runId,
      runAttempt: 1,
      runUrl: `https://github.com/${repository}/actions/runs/${runId}`,
      runner: card.provenance.runner,
      gpu: card.provenance.gpu,
      engine: card.engine,
      failureKind: null,
      cardCreatedAt: card.createdAt,
      scores: [{ scenario: null, score: card.roundScore, interval: card.scoreInterval }],
    });
    const cardId = await recordCardDocument(queryable, {
      repository,
      runId,
      runAttempt: 1,
      pullRequest: null,
      headSha: probed.headSha,
      card: json,
      facts: cardDocumentFactsFrom(card),
    });
    probes.push({ roundId, headSha: probed.headSha, cardId, score: card.roundScore });
  }
  if (bisectionId !== null)
    await finishBisection(queryable, bisectionId, {
      status: "done",
      outcome: { kind: "single", firstBad: commits.length - 1, parent: commits.length - 2, share: { value: 0.95, low: 0.8, high: 1.1 } },
    });
  await recordChangePoint(queryable, {
    repository,
    scenario: null,
    firstRoundId: changeRound.roundId,
    pValue: 0.001,
    change: 0.88,
    bisectionId,
  });

  const pulls: SeededHistory["pulls"] = new Map();
  for (const [index, pull] of PULLS.entries()) {
    const card = readExample(pull.name);
    const runId = 900_000 + index;
    const headSha = `${pull.pullRequest}`.padStart(4, "0").repeat(10);
    const origin = {
      repository,
      pullRequest: pull.pullRequest,
      headSha,
      runId,
      runAttempt: 1,
      runUrl: `https://github.com/${repository}/actions/runs/${runId}`,
    };
    await recordCard(queryable, cardRecordFrom(card, origin));
    const cardId = await recordCardDocument(queryable, {
      repository,
      runId,
      runAttempt: 1,
      pullRequest: pull.pullRequest,
      headSha,
      card: JSON.stringify(card),
      facts: cardDocumentFactsFrom(card),
    });
    await recordPullRequestState(queryable, { repository, number: pull.pullRequest, state: pull.open ? "open" : "closed", headSha });
    pulls.set(pull.name, { pullRequest: pull.pullRequest, cardId, card, open: pull.open });
  }
  // Two earlier calibrations of the same runner, for the runner page's "over time": the calibrated example card
  // with its calibration's date moved back and its noise larger, as a runner's first calibrations often are.
  const calibrated = pulls.get("calibrated-three-runs")?.card;
  const calibration = calibrated?.gate.calibration;
  if (calibrated && calibration) {
    for (const [index, earlier] of EARLIER_CALIBRATIONS.entries()) {
      const card: Scorecard = {
        ...calibrated,
        gate: { ...calibrated.gate, calibration: { ...calibration, ...earlier } },
      };
      const runId = 800_000 + index;
      await recordCardDocument(queryable, {
        repository,
        runId,
        runAttempt: 1,
        pullRequest: 104,
        headSha: "0104".repeat(10),
        card: JSON.stringify(card),
        facts: cardDocumentFactsFrom(card),
      });
    }
  }
  await recordLeaderboardIssue(queryable, repository, { number: 7, pinned: true });
  return { repository, mainRounds, changeRoundId: changeRound.roundId, probes, pulls };
}
