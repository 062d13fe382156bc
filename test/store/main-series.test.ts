import { beforeEach, expect, it } from "vitest";
import type { Database } from "../../src/store/database.js";
import {
  BisectionRunningError,
  type MainRoundRecord,
  finishBisection,
  listBisections,
  listChangePoints,
  listMainScenarios,
  listBisectionRounds,
  listMergeRounds,
  listMainSeries,
  readBisection,
  recordChangePoint,
  recordMainRound,
  startBisection,
} from "../../src/store/main-series.js";
import { describeEachBackend, useTestDatabase } from "../support/database/database-backends.js";

const sha = (digit: string): string => digit.repeat(40);

function round(overrides: Partial<MainRoundRecord> = {}): MainRoundRecord {
  return {
    repository: "Octo/Engine",
    kind: "drift",
    baseSha: sha("a"),
    headSha: sha("b"),
    headCommittedAt: "2026-03-01T00:00:00.000Z",
    bisectionId: null,
    stepKey: null,
    runId: 1,
    runAttempt: 1,
    runUrl: "https://github.com/octo/engine/actions/runs/1",
    runner: "gpu-runner-3",
    gpu: "NVIDIA H100 80GB HBM3",
    engine: "sglang",
    failureKind: null,
    cardCreatedAt: "2026-03-01T01:00:00.000Z",
    scores: [
      { scenario: "decode", score: 0.92, interval: { low: 0.9, high: 0.94 } },
      { scenario: "chat", score: 1.0, interval: { low: 0.98, high: 1.02 } },
    ],
    ...overrides,
  };
}

describeEachBackend("main's series", (backend) => {
  const test = useTestDatabase(backend);
  let database: Database;

  beforeEach(async () => {
    database = test.database();
    await database.pool.query(
      "TRUNCATE speedgate.main_change_points, speedgate.main_round_scores, speedgate.main_rounds, speedgate.bisections " +
        "RESTART IDENTITY CASCADE",
    );
  });

  it("stores each round's score per scenario and reads one scenario's series in main's order, each point linking its run", async () => {
    await recordMainRound(database.pool, round({ runId: 2, headSha: sha("c"), headCommittedAt: "2026-03-02T00:00:00.000Z" }));
    await recordMainRound(database.pool, round({ runId: 1 }));
    await recordMainRound(database.pool, round({ runId: 3, scores: [{ scenario: null, score: 0.5, interval: null }] }));
    const decode = await listMainSeries(database.pool, { repository: "octo/ENGINE", scenario: "decode" });
    expect(decode.map((point) => [point.headSha, point.score, point.interval])).toEqual([
      [sha("b"), 0.92, { low: 0.9, high: 0.94 }],
      [sha("c"), 0.92, { low: 0.9, high: 0.94 }],
    ]);
    expect(decode[0]).toMatchObject({ kind: "drift", runUrl: "https://github.com/octo/engine/actions/runs/1", runner: "gpu-runner-3" });
    expect(await listMainSeries(database.pool, { repository: "octo/engine", scenario: null })).toHaveLength(1);
    expect(await listMainScenarios(database.pool, "octo/engine")).toEqual([null, "chat", "decode"]);
  });

  it("replaces a redelivered run's scores and keeps its id", async () => {
    const first = await recordMainRound(database.pool, round());
    const again = await recordMainRound(database.pool, round({ scores: [{ scenario: "decode", score: 0.95, interval: null }] }));
    expect(again).toBe(first);
    expect((await listMainSeries(database.pool, { repository: "octo/engine", scenario: "decode" })).map((point) => point.score)).toEqual([
      0.95,
    ]);
    expect(await listMainSeries(database.pool, { repository: "octo/engine", scenario: "chat" })).toEqual([]);
  });

  it("runs one bisection per repository at a time, ties its steps to it, and keeps its outcome", async () => {
    const commits = [sha("a"), sha("c"), sha("b")];
    const id = await startBisection(database.pool, { repository: "Octo/Engine", commits, scenario: "decode", trigger: "drift" });
    await expect(
      startBisection(database.pool, { repository: "octo/engine", commits, scenario: "chat", trigger: "manual" }),
    ).rejects.toThrow(BisectionRunningError);
    // Another repository's is its own.
    await startBisection(database.pool, { repository: "octo/other", commits, scenario: null, trigger: "change-point" });
    await recordMainRound(database.pool, round({ runId: 7, kind: "probe", headSha: sha("c"), bisectionId: id, stepKey: "probe-1-1" }));
    const probes = await listMainSeries(database.pool, { repository: "octo/engine", scenario: "decode", kinds: ["probe"] });
    expect(probes).toMatchObject([{ kind: "probe", bisectionId: id, stepKey: "probe-1-1" }]);
    expect(await listMainSeries(database.pool, { repository: "octo/engine", scenario: "decode", kinds: ["drift"] })).toEqual([]);

    await finishBisection(database.pool, id, { outcome: { kind: "single", firstBad: 1, parent: 0 }, status: "done", trackingIssue: 12 });
    const [stored] = await listBisections(database.pool, "octo/engine");
    expect(stored).toMatchObject({
      id,
      good: sha("a"),
      bad: sha("b"),
      scenario: "decode",
      trigger: "drift",
      status: "done",
      commits,
      outcome: { kind: "single", firstBad: 1, parent: 0 },
      trackingIssue: 12,
    });
    expect(stored?.finishedAt).toBeInstanceOf(Date);
    // Once it is done, the next may start.
    await startBisection(database.pool, { repository: "octo/engine", commits, scenario: "decode", trigger: "change-point" });
  });

  it("records a change point once, for the trend page's marks", async () => {
    const roundId = await recordMainRound(database.pool, round());
    const point = { repository: "octo/engine", scenario: "decode", firstRoundId: roundId, pValue: 0.005, change: 0.92, bisectionId: null };
    expect(await recordChangePoint(database.pool, point)).toBe(true);
    expect(await recordChangePoint(database.pool, point)).toBe(false);
    expect(await listChangePoints(database.pool, "Octo/Engine")).toMatchObject([
      { scenario: "decode", firstRoundId: roundId, pValue: 0.005 },
    ]);
  });

  it("reads a bisection and its rounds in the order stored, each with every scenario's score (the app replans from them)", async () => {
    const commits = [sha("a"), sha("c"), sha("b")];
    const id = await startBisection(database.pool, { repository: "Octo/Engine", commits, scenario: "decode", trigger: "drift" });
    expect(await readBisection(database.pool, id)).toMatchObject({ id, repository: "octo/engine", status: "running", commits });
    expect(await readBisection(database.pool, id + 1)).toBeNull();
    // Not the bisection's: a drift round of another repository, and one without a bisection.
    await recordMainRound(database.pool, round({ runId: 9 }));
    await recordMainRound(database.pool, round({ repository: "other/engine", runId: 1, bisectionId: null }));
    await recordMainRound(database.pool, round({ runId: 10, bisectionId: id, stepKey: "range" }));
    await recordMainRound(
      database.pool,
      round({ runId: 11, kind: "probe", bisectionId: id, stepKey: "probe-1-1", headSha: sha("c"), failureKind: "no_card", scores: [] }),
    );
    await recordMainRound(
      database.pool,
      round({
        runId: 12,
        kind: "probe",
        bisectionId: id,
        stepKey: "probe-1-2",
        headSha: sha("c"),
        scores: [{ scenario: "decode", score: 0.99, interval: null }],
      }),
    );
    const rounds = await listBisectionRounds(database.pool, id);
    expect(rounds.map((entry) => [entry.stepKey, entry.runId, entry.kind])).toEqual([
      ["range", 10, "drift"],
      ["probe-1-1", 11, "probe"],
      ["probe-1-2", 12, "probe"],
    ]);
    expect(rounds[0]?.scores).toEqual([
      { scenario: "chat", score: 1.0, interval: { low: 0.98, high: 1.02 } },
      { scenario: "decode", score: 0.92, interval: { low: 0.9, high: 0.94 } },
    ]);
    // A step whose run uploaded no card is stored with no score: the plan repeats it.
    expect(rounds[1]).toMatchObject({ failureKind: "no_card", scores: [] });
    expect(rounds[2]?.scores).toEqual([{ scenario: "decode", score: 0.99, interval: null }]);
    // The same run stored again (a redelivery) is one round still.
    await recordMainRound(database.pool, round({ runId: 10, bisectionId: id, stepKey: "range" }));
    expect(await listBisectionRounds(database.pool, id)).toHaveLength(3);
  });

  it("reads a merge's rounds against its parent, in the order stored, and no other round of that commit or repository", async () => {
    const merge = (overrides: Partial<MainRoundRecord>): MainRoundRecord =>
      round({ kind: "merge", baseSha: sha("a"), headSha: sha("b"), stepKey: "merge-1", ...overrides });
    await recordMainRound(database.pool, merge({ runId: 11 }));
    // A drift round of the same head, another merge, another repository's merge of the same SHA: none is this merge's round.
    await recordMainRound(database.pool, round({ runId: 12 }));
    await recordMainRound(database.pool, merge({ runId: 13, headSha: sha("c"), baseSha: sha("b") }));
    await recordMainRound(database.pool, merge({ runId: 14, repository: "octo/other" }));
    await recordMainRound(
      database.pool,
      merge({ runId: 15, stepKey: "merge-2", scores: [{ scenario: "decode", score: 0.95, interval: { low: 0.94, high: 0.96 } }] }),
    );
    const rounds = await listMergeRounds(database.pool, "OCTO/engine", sha("b"));
    expect(rounds.map((entry) => [entry.runId, entry.stepKey, entry.kind, entry.baseSha])).toEqual([
      [11, "merge-1", "merge", sha("a")],
      [15, "merge-2", "merge", sha("a")],
    ]);
    expect(rounds[1]?.scores).toEqual([{ scenario: "decode", score: 0.95, interval: { low: 0.94, high: 0.96 } }]);
  });
});
