import { describe, expect, it } from "vitest";
import {
  DEFAULT_RUN_BUDGET,
  FIRST_LOOK_ALPHA,
  FUTILITY_BETA,
  SEQUENTIAL_ALPHA,
  describeBudgetProblem,
  lookRuns,
  spendAlpha,
  spendBeta,
} from "../../src/scoring/sequential-design.js";

describe("lookRuns", () => {
  it("looks after whole pairs when counterbalanced, so both engines have gone first equally often at every look", () => {
    expect(lookRuns({ min: 2, max: 8 })).toEqual([2, 4, 6, 8]);
    expect(lookRuns(DEFAULT_RUN_BUDGET)).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]);
    expect(lookRuns({ min: 4, max: 4 })).toEqual([4]);
  });

  it("looks after every run when the baseline goes first in every run", () => {
    expect(lookRuns({ min: 2, max: 5 }, "baseline-first")).toEqual([2, 3, 4, 5]);
  });
});

describe("spendAlpha and spendBeta", () => {
  it("spend the first look's share there and the rest in proportion to the runs after it", () => {
    const spent = spendAlpha([2, 4, 6, 8]);
    expect(spent[0]).toBe(FIRST_LOOK_ALPHA);
    expect(spent.reduce((sum, value) => sum + value, 0)).toBeCloseTo(SEQUENTIAL_ALPHA, 15);
    expect(spent[1]).toBeCloseTo(spent[3] as number, 15);
  });

  it("spend everything at a single look", () => {
    expect(spendAlpha([4])).toEqual([SEQUENTIAL_ALPHA]);
    expect(spendBeta([4])).toEqual([FUTILITY_BETA]);
  });

  it("spend the futility error in proportion to the runs each look adds", () => {
    const spent = spendBeta([2, 4, 8]);
    expect(spent).toEqual([FUTILITY_BETA / 4, FUTILITY_BETA / 4, FUTILITY_BETA / 2]);
  });
});

describe("describeBudgetProblem", () => {
  it("refuses budgets the rule cannot look at", () => {
    expect(describeBudgetProblem({ min: 4, max: 2 }, "counterbalanced")).toMatch(/min \(4\) to be at most max \(2\)/);
    expect(describeBudgetProblem({ min: 1, max: 8 }, "baseline-first")).toMatch(/at least 2/);
    expect(describeBudgetProblem({ min: 2, max: 7 }, "counterbalanced")).toMatch(/even min and max .* whole pairs/);
    expect(describeBudgetProblem({ min: 3, max: 7 }, "baseline-first")).toBeNull();
    expect(describeBudgetProblem(DEFAULT_RUN_BUDGET, "counterbalanced")).toBeNull();
  });
});
