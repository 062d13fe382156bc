import { readFileSync } from "node:fs";
import { beforeEach, expect, it } from "vitest";
import { mainSha, seedHistoryStore } from "../../harness/seed-history-store.js";
import { readRepositoryPage, readRunnerPage } from "../../src/history/read-history-pages.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import {
  type CardDocumentRecord,
  cardDocumentFactsFrom,
  isCardDocumentId,
  listRunnerCalibrations,
  readCardDocument,
  recordCardDocument,
} from "../../src/store/card-documents.js";
import type { Database } from "../../src/store/database.js";
import { describeEachBackend, useTestDatabase } from "../support/database/database-backends.js";

/*
 * speedgate.card_documents (migration 0006): each round's whole card under a random id. The id is its
 * page's URL, so it must survive a redelivery, must not be derivable from the run, and an id of the
 * wrong form is never looked up. The repository and runner pages read the seeded store's figures back.
 */

const calibrated = parseScorecardJson(
  readFileSync(new URL("../../examples/cards/calibrated-three-runs.json", import.meta.url), "utf8"),
  "calibrated-three-runs.json",
);

function document(overrides: Partial<CardDocumentRecord> = {}): CardDocumentRecord {
  return {
    repository: "Octo/Engine",
    runId: 11,
    runAttempt: 1,
    pullRequest: 3,
    headSha: "d".repeat(40),
    card: JSON.stringify(calibrated),
    facts: cardDocumentFactsFrom(calibrated),
    ...overrides,
  };
}

describeEachBackend("the cards' pages in the store", (backend) => {
  const test = useTestDatabase(backend);
  let database: Database;

  beforeEach(async () => {
    database = test.database();
    await database.pool.query(
      "TRUNCATE speedgate.card_documents, speedgate.cards, speedgate.pull_requests, speedgate.leaderboards, " +
        "speedgate.main_change_points, speedgate.main_round_scores, speedgate.main_rounds, speedgate.bisections RESTART IDENTITY CASCADE",
    );
  });

  it("keeps a card under a random id that the same run's attempt keeps when stored again", async () => {
    const first = await recordCardDocument(database.pool, document());
    expect(isCardDocumentId(first)).toBe(true);
    const again = await recordCardDocument(database.pool, document({ card: JSON.stringify({ ...calibrated, roundScore: 2 }) }));
    expect(again).toBe(first);
    expect(JSON.parse((await readCardDocument(database.pool, first))?.cardJson ?? "{}")).toMatchObject({ roundScore: 2 });
    // Another attempt of the same run, or the same run of another repository, is another card with an unrelated id.
    const retry = await recordCardDocument(database.pool, document({ runAttempt: 2 }));
    const elsewhere = await recordCardDocument(database.pool, document({ repository: "octo/other" }));
    expect(new Set([first, retry, elsewhere]).size).toBe(3);
    expect(await readCardDocument(database.pool, first)).toMatchObject({ repository: "octo/engine", runId: 11, pullRequest: 3 });
  });

  it("looks up no id of the wrong form", async () => {
    await recordCardDocument(database.pool, document());
    for (const id of ["", "1", "' OR 1=1 --", "a".repeat(23), "%".repeat(22)]) {
      expect(isCardDocumentId(id)).toBe(false);
      expect(await readCardDocument(database.pool, id)).toBeNull();
    }
  });

  it("lists each calibration the rounds used once, with how many rounds it gated", async () => {
    await recordCardDocument(database.pool, document({ runId: 1 }));
    await recordCardDocument(database.pool, document({ runId: 2 }));
    const older = { ...calibrated.gate.calibration, measuredAt: "2026-10-01T00:00:00.000Z", noiseFloor: 0.05, detectableSpeedup: 1.08 };
    const card = { ...calibrated, gate: { ...calibrated.gate, calibration: older } } as typeof calibrated;
    await recordCardDocument(database.pool, document({ runId: 3, card: JSON.stringify(card), facts: cardDocumentFactsFrom(card) }));
    await recordCardDocument(database.pool, document({ runId: 4, repository: "octo/other" }));
    const calibrations = await listRunnerCalibrations(database.pool, "octo/engine");
    expect(calibrations.map((entry) => [entry.runner, entry.measuredAt, entry.noiseFloor, entry.rounds])).toEqual([
      ["gpu-runner-3", "2026-10-01T00:00:00.000Z", 0.05, 1],
      ["gpu-runner-3", calibrated.gate.calibration?.measuredAt, calibrated.gate.calibration?.noiseFloor, 2],
    ]);
  });

  it("reads back a seeded store's figures for the repository and runner pages", async () => {
    const seeded = await seedHistoryStore(database.pool, { repository: "Octo/Engine", mainRounds: 9 });
    const page = await readRepositoryPage(database.pool, "octo/engine");
    const [trend] = page.trends;
    const drift = trend?.points.filter((point) => point.kind === "drift");
    expect(drift?.map((point) => [point.headSha, point.score, point.low, point.high, point.cardId])).toEqual(
      seeded.mainRounds.map((round) => [round.headSha, round.score, round.low, round.high, round.cardId]),
    );
    expect(trend?.points.filter((point) => point.changePoint).map((point) => point.roundId)).toEqual([seeded.changeRoundId]);
    // The bisection's probes are points of their own, each linking its card.
    expect(
      trend?.points.filter((point) => point.kind === "probe").map((point) => [point.roundId, point.cardId, point.bisectionId]),
    ).toEqual(seeded.probes.map((probe) => [probe.roundId, probe.cardId, page.bisections[0]?.id]));
    expect(page.bisections).toHaveLength(1);
    expect(page.bisections[0]?.finding).toContain(mainSha(7).slice(0, 12));
    // The closed pull request's card is not among the open ones; each open one links its card.
    const open = [...seeded.pulls.values()].filter((pull) => pull.open);
    expect(page.openPulls.map((pull) => [pull.pullRequest, pull.cardId]).sort()).toEqual(
      open.map((pull) => [pull.pullRequest, pull.cardId]).sort(),
    );
    expect(page.leaderboard?.map((entry) => entry.pullRequest).sort()).toEqual(open.map((pull) => pull.pullRequest).sort());
    const runners = await readRunnerPage(database.pool, "octo/engine");
    expect(runners.calibrations.map((entry) => entry.measuredAt)).toEqual([
      "2026-09-02T08:30:00.000Z",
      "2026-10-07T08:30:00.000Z",
      seeded.pulls.get("calibrated-three-runs")?.card.gate.calibration?.measuredAt,
    ]);
    expect(runners.calibrations.at(-1)?.cardId).toBe(seeded.pulls.get("calibrated-three-runs")?.cardId);
  });
});
