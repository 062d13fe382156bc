import { describe, expect, it } from "vitest";
import { describeBudgetStop, describeFixedFour } from "../../../src/scorecard/render/describe-budget.js";
import type { CardSequential, Scorecard, TimeSpent } from "../../../src/scorecard/scorecard-schema.js";
import { concatPatterns } from "../../support/concat-patterns.js";

function budgetCard(sequential: Partial<CardSequential>, completed: number): Parameters<typeof describeBudgetStop>[0] {
  const settings = { runs: 16, budget: { min: 2, max: 16 } } as Scorecard["settings"];
  return {
    settings,
    runs: { completed, scores: [] },
    gate: { minRoundScore: 1 } as Scorecard["gate"],
    sequential: {
      budget: { min: 2, max: 16 },
      alpha: 0.04,
      spread: "starts",
      runs: completed,
      looks: [],
      decision: "undecided",
      decidedAfter: null,
      runSpread: 0.08,
      detectable: 1.1371,
      stop: null,
      ...sequential,
    },
  };
}

const time = (runs: number): TimeSpent => {
  const side = { starts: runs, startMs: runs * 90_000, warmupMs: runs * 5_000, benchmarkMs: runs * 30_000, stopMs: runs * 5_000 };
  return { totalMs: 0, prepareMs: 0, baseline: side, candidate: side };
};

describe("describeBudgetStop", () => {
  it("says how many runs the round took and why it stopped", () => {
    expect(describeBudgetStop(budgetCard({ decision: "pass", decidedAfter: 2, stop: "decided" }, 2))).toBe(
      "decided after 2 runs of each engine, of a budget of 2 to 16",
    );
    expect(describeBudgetStop(budgetCard({ decision: "fail", decidedAfter: 4, stop: "ruled-out" }, 4))).toBe(
      "decided after 4 runs of each engine: a speedup of 1.10× is ruled out, of a budget of 2 to 16",
    );
    expect(describeBudgetStop(budgetCard({ stop: "integrity" }, 2))).toBe(
      "stopped after 2 runs of each engine, of a budget of 2 to 16: what keeps the gate closed is not something more runs fix",
    );
  });

  it("at the budget, undecided, names the smallest speedup this runner can show in that many runs", () => {
    expect(describeBudgetStop(budgetCard({ stop: "budget" }, 16))).toBe(
      "16 runs, the budget, still undecided: the smallest speedup this runner can show in 16 runs is 1.14×",
    );
  });

  it("says nothing of a card of a fixed number of runs", () => {
    const fixed = { ...budgetCard({}, 4), settings: { runs: 4 } as Scorecard["settings"], sequential: undefined };
    expect(describeBudgetStop(fixed)).toBeNull();
    expect(describeFixedFour(fixed, time(4))).toBeNull();
  });
});

describe("describeFixedFour", () => {
  it("counts the engine time a budget saved against a fixed four runs", () => {
    expect(describeFixedFour(budgetCard({}, 2), time(2))).toBe(
      "With a budget of 2 to 16 runs the round took 2 runs of each engine: 8 min 40 s of engine time (GPU time on a GPU runner), " +
        "where a fixed four would have taken about 17 min 20 s: 8 min 40 s (50%) saved.",
    );
  });

  it("and what deciding cost when the runner's noise took more", () => {
    expect(describeFixedFour(budgetCard({}, 10), time(10))).toMatch(
      concatPatterns(
        /took 10 runs of each engine: 43 min 20 s of engine time .* about 17 min 20 s: /,
        /26 min more, what deciding at this runner's noise took\.$/,
      ),
    );
  });
});
