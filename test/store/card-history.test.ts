import { beforeEach, expect, it } from "vitest";
import {
  cardRecordFrom,
  listCards,
  listCommitTrend,
  listLeaderboard,
  readLeaderboardIssue,
  recordCard,
  recordLeaderboardIssue,
  recordPullRequestState,
} from "../../src/store/card-history.js";
import type { Database } from "../../src/store/database.js";
import { describeEachBackend, useTestDatabase } from "../support/database/database-backends.js";
import { makeCardRecord } from "../support/database/make-card-record.js";
import { makeCard, seedOomFailure } from "../../harness/make-card.js";
import { makeScenarioRound } from "../support/make-scenario-round.js";
import { GATE_MODES } from "../../src/scoring/evaluate-gate.js";

const sha = (digit: string): string => digit.repeat(40);

describeEachBackend("the card history", (backend) => {
  const test = useTestDatabase(backend);
  let database: Database;

  beforeEach(async () => {
    database = test.database();
    await database.pool.query("TRUNCATE speedgate.cards, speedgate.pull_requests, speedgate.leaderboards");
  });

  it("stores every field of a card the app posts, and reads it back", async () => {
    const card = makeCard([{ speedup: 1.2 }, { speedup: 1.1 }], { failure: seedOomFailure() });
    const record = cardRecordFrom(card, {
      repository: "Octo/Engine",
      pullRequest: 12,
      headSha: sha("b"),
      runId: 9_007_199_254,
      runAttempt: 2,
      runUrl: "https://github.com/octo/engine/actions/runs/9007199254",
    });
    await recordCard(database.pool, record);
    const [stored, ...rest] = await listCards(database.pool, { repository: "octo/ENGINE" });
    expect(rest).toEqual([]);
    expect(stored).toMatchObject({
      repository: "octo/engine",
      pullRequest: 12,
      headSha: sha("b"),
      runId: 9_007_199_254,
      runAttempt: 2,
      roundScore: card.roundScore,
      gate: { passed: card.gate.passed, minRoundScore: card.gate.minRoundScore, use: card.gate.use },
      failure: { kind: "cuda_oom", engine: "candidate", stage: "startup" },
      imageDigest: card.provenance.imageDigest,
      patchHash: card.provenance.patchHash,
      runner: "gpu-runner-3",
      gpu: "NVIDIA H100 80GB HBM3",
      engine: "sglang",
    });
    expect(stored?.recordedAt).toBeInstanceOf(Date);
  });

  it("records a round with scenarios by its headline scenario's score and combined gate, with how many scenarios passed", async () => {
    const card = makeScenarioRound(
      [
        { name: "decode-c1", speedup: 1.2 },
        { name: "chat-rate4", speedup: 1.1 },
        { name: "prefill-c32", speedup: 0.95, minRoundScore: 0.9 },
      ],
      0.97,
    );
    const origin = { repository: "octo/engine", pullRequest: 31, headSha: sha("d"), runId: 310, runAttempt: 1, runUrl: null };
    await recordCard(database.pool, cardRecordFrom(card, origin));
    await recordCard(database.pool, cardRecordFrom(makeCard([{ speedup: 1.2 }]), { ...origin, runId: 311 }));
    const [scenarios, plain] = await listCards(database.pool, { repository: "octo/engine", pullRequest: 31 });
    expect(scenarios).toMatchObject({
      roundScore: card.scenarios?.[0]?.card.roundScore,
      gate: { passed: false },
      scenarios: { total: 3, passed: 2 },
    });
    expect(plain?.scenarios).toBeNull();
  });

  it("reads back every gate rule a card can carry, the calibrated noise floor included", async () => {
    const card = makeCard([{ speedup: 1.2 }]);
    for (const [index, use] of GATE_MODES.entries()) {
      const record = cardRecordFrom(
        { ...card, gate: { ...card.gate, use } },
        {
          repository: "octo/engine",
          pullRequest: 30,
          headSha: sha("c"),
          runId: 300 + index,
          runAttempt: 1,
          runUrl: "https://github.com/octo/engine/actions/runs/300",
        },
      );
      await recordCard(database.pool, record);
    }
    const cards = await listCards(database.pool, { repository: "octo/engine", pullRequest: 30 });
    expect(cards.map((stored) => stored.gate.use).sort()).toEqual([...GATE_MODES].sort());
  });

  it("keeps one row per run attempt: a redelivered card replaces its row, a re-run adds one", async () => {
    await recordCard(database.pool, makeCardRecord({ runId: 5, roundScore: 1.01 }));
    await recordCard(database.pool, makeCardRecord({ runId: 5, roundScore: 1.02 }));
    await recordCard(database.pool, makeCardRecord({ runId: 5, runAttempt: 2, roundScore: 1.03 }));
    const cards = await listCards(database.pool, { repository: "octo/engine" });
    expect(cards.map((card) => [card.runId, card.runAttempt, card.roundScore])).toEqual([
      [5, 1, 1.02],
      [5, 2, 1.03],
    ]);
  });

  it("lists one pull request, or the newest N oldest first", async () => {
    for (const [pullRequest, score] of [
      [1, 1.0],
      [2, 1.1],
      [1, 1.2],
      [1, 1.3],
    ] as const) {
      await recordCard(database.pool, makeCardRecord({ pullRequest, roundScore: score }));
    }
    expect((await listCards(database.pool, { repository: "octo/engine", pullRequest: 1 })).map((card) => card.roundScore)).toEqual([
      1.0, 1.2, 1.3,
    ]);
    expect((await listCards(database.pool, { repository: "octo/engine", limit: 2 })).map((card) => card.roundScore)).toEqual([1.2, 1.3]);
    expect(await listCards(database.pool, { repository: "other/repo" })).toEqual([]);
  });

  it("gives the trend one point per commit, in the order commits were first scored, each with its newest score", async () => {
    await recordCard(database.pool, makeCardRecord({ pullRequest: 4, headSha: sha("1"), roundScore: 1.05 }));
    await recordCard(database.pool, makeCardRecord({ pullRequest: 4, headSha: sha("2"), roundScore: 1.1 }));
    // A /rescore of the second commit: its newer score replaces the point, which keeps its place.
    await recordCard(database.pool, makeCardRecord({ pullRequest: 4, headSha: sha("2"), roundScore: 1.12 }));
    await recordCard(database.pool, makeCardRecord({ pullRequest: 4, headSha: sha("3"), roundScore: 1.18 }));
    await recordCard(database.pool, makeCardRecord({ pullRequest: 5, headSha: sha("9"), roundScore: 2 }));
    const trend = await listCommitTrend(database.pool, "OCTO/engine", 4);
    expect(trend.map((card) => [card.headSha[0], card.roundScore])).toEqual([
      ["1", 1.05],
      ["2", 1.12],
      ["3", 1.18],
    ]);
  });

  it("ranks each open pull request by the lower-median run of all its commits, and drops closed ones", async () => {
    // Pull request 1 had a lucky 1.2× and moved on to a commit that scored 1.1×: of the two runs, the lower stands.
    await recordCard(database.pool, makeCardRecord({ pullRequest: 1, headSha: sha("1"), roundScore: 1.2 }));
    await recordCard(database.pool, makeCardRecord({ pullRequest: 1, headSha: sha("2"), roundScore: 1.1 }));
    await recordCard(database.pool, makeCardRecord({ pullRequest: 2, headSha: sha("3"), roundScore: 1.4 }));
    await recordCard(
      database.pool,
      makeCardRecord({
        pullRequest: 3,
        headSha: sha("4"),
        roundScore: null,
        failure: { kind: "cuda_oom", engine: "candidate", stage: "startup" },
      }),
    );
    await recordCard(database.pool, makeCardRecord({ pullRequest: 4, headSha: sha("5"), roundScore: 1.9 }));
    await recordPullRequestState(database.pool, { repository: "octo/engine", number: 4, state: "closed", headSha: sha("5") });
    await recordPullRequestState(database.pool, { repository: "octo/engine", number: 2, state: "open", headSha: null });
    const board = await listLeaderboard(database.pool, "octo/engine");
    expect(board.map((card) => [card.pullRequest, card.roundScore, card.headSha[0], card.runs, card.commits])).toEqual([
      [2, 1.4, "3", 1, 1],
      [1, 1.1, "2", 2, 2],
      [3, null, "4", 1, 1],
    ]);
    await recordPullRequestState(database.pool, { repository: "octo/engine", number: 4, state: "open", headSha: null });
    expect((await listLeaderboard(database.pool, "octo/engine"))[0]?.pullRequest).toBe(4);
  });

  it("does not let no-op commits, each scored once, buy a lucky draw: every commit's run counts", async () => {
    // Nine commits that change nothing, scored automatically: noise around 1.0×, the last one lucky.
    const scores = [0.99, 1.01, 0.98, 1.02, 1.0, 0.97, 1.03, 1.0, 1.35];
    for (const [index, score] of scores.entries())
      await recordCard(
        database.pool,
        makeCardRecord({ pullRequest: 11, headSha: sha(String.fromCharCode(97 + index)), roundScore: score }),
      );
    const [eleven] = await listLeaderboard(database.pool, "octo/engine");
    // The newest commit's own run would have stood at 1.35×.
    expect([eleven?.roundScore, eleven?.runs, eleven?.commits]).toEqual([1.0, 9, 9]);
  });

  it("does not let re-runs of one commit fish its score upward: the lower median of its runs stands", async () => {
    // Five runs of the same code: noise around 1.0×, one lucky 1.3×. Best-ever would show 1.3×.
    for (const score of [0.98, 1.3, 1.01, 0.99, 1.02])
      await recordCard(database.pool, makeCardRecord({ pullRequest: 8, headSha: sha("8"), roundScore: score }));
    expect((await listLeaderboard(database.pool, "octo/engine")).map((card) => [card.roundScore, card.runs])).toEqual([[1.01, 5]]);
    // Two runs: the lower one; a failed run counts as the lowest.
    await recordCard(database.pool, makeCardRecord({ pullRequest: 9, headSha: sha("9"), roundScore: 1.4 }));
    await recordCard(
      database.pool,
      makeCardRecord({
        pullRequest: 9,
        headSha: sha("9"),
        roundScore: null,
        failure: { kind: "cuda_oom", engine: "candidate", stage: "startup" },
      }),
    );
    const nine = (await listLeaderboard(database.pool, "octo/engine")).find((card) => card.pullRequest === 9);
    expect([nine?.roundScore, nine?.failure?.kind, nine?.runs]).toEqual([null, "cuda_oom", 2]);
  });

  it("remembers the leaderboard's issue per repository", async () => {
    expect(await readLeaderboardIssue(database.pool, "octo/engine")).toBeNull();
    await recordLeaderboardIssue(database.pool, "Octo/Engine", { number: 77, pinned: false });
    await recordLeaderboardIssue(database.pool, "octo/engine", { number: 78, pinned: true });
    expect(await readLeaderboardIssue(database.pool, "octo/engine")).toEqual({ number: 78, pinned: true });
  });
});
