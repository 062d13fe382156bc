import { describe, expect, it } from "vitest";
import { type MergeRound, judgeMergeRounds } from "../../src/watch/judge-merge-rounds.js";

const settings = { maxDrift: 0.97, maxRepeats: 2 };

function round(decode: { score: number; low: number; high: number } | null, chat = { score: 1, low: 0.99, high: 1.01 }): MergeRound {
  return {
    scores: [
      { scenario: "decode", score: decode?.score ?? null, interval: decode ? { low: decode.low, high: decode.high } : null },
      { scenario: "chat", score: chat.score, interval: { low: chat.low, high: chat.high } },
    ],
  };
}

describe("judgeMergeRounds", () => {
  it("names a merge whose interval lies wholly below the bar against its parent, the slowest scenario first", () => {
    const judgement = judgeMergeRounds([round({ score: 0.92, low: 0.915, high: 0.925 }, { score: 0.95, low: 0.94, high: 0.96 })], settings);
    expect(judgement.verdict).toBe("regression");
    expect(judgement.drifted.map((entry) => entry.name)).toEqual(["decode", "chat"]);
    expect(judgement.rounds).toBe(1);
  });

  it("lets a merge whose every interval reaches the bar pass, and one a scenario of which scored nothing", () => {
    expect(judgeMergeRounds([round({ score: 0.99, low: 0.975, high: 1.005 })], settings).verdict).toBe("within");
    // The other scenario held; decode's engine failed in it: nothing says decode drifted, and chat is judged.
    expect(judgeMergeRounds([round(null)], settings).verdict).toBe("within");
  });

  it("asks for another round while an interval straddles the bar, pools the rounds, and says undecided when the repeats run out", () => {
    const straddling = round({ score: 0.97, low: 0.95, high: 0.99 });
    expect(judgeMergeRounds([straddling], settings).verdict).toBe("repeat");
    expect(judgeMergeRounds([straddling, straddling], settings).verdict).toBe("repeat");
    const undecided = judgeMergeRounds([straddling, straddling, straddling], settings);
    expect(undecided.verdict).toBe("undecided");
    expect(undecided.scenarios[0]?.pooled?.rounds).toBe(3);
    // Pooled, three straddling rounds a little below the bar narrow to an interval wholly below it: named, not undecided.
    const below = round({ score: 0.955, low: 0.935, high: 0.975 });
    expect(judgeMergeRounds([below], settings).verdict).toBe("repeat");
    const pooled = judgeMergeRounds([below, below, below], settings);
    expect(pooled.verdict).toBe("regression");
    expect(pooled.drifted[0]?.pooled?.interval?.high).toBeLessThan(0.97);
    // No repeats allowed: the first straddling round is undecided at once.
    expect(judgeMergeRounds([straddling], { maxDrift: 0.97, maxRepeats: 0 }).verdict).toBe("undecided");
  });

  it("runs a round that scored nothing again while repeats remain, then says it scored nothing", () => {
    const nothing: MergeRound = { scores: [{ scenario: "decode", score: null, interval: null }] };
    expect(judgeMergeRounds([nothing], settings).verdict).toBe("repeat");
    expect(judgeMergeRounds([nothing, nothing, nothing], settings).verdict).toBe("nothing");
    expect(judgeMergeRounds([], settings).verdict).toBe("repeat");
  });
});
