import { describe, expect, it } from "vitest";
import { judgeDrift, judgeScenarioDrift } from "../../src/watch/judge-drift.js";
import { readScenarioEstimates } from "../../src/watch/scenario-estimates.js";
import { makeCard } from "../../harness/make-card.js";
import { makeScenarioRound } from "../support/make-scenario-round.js";

const at = (score: number, low: number, high: number) => ({ score, interval: { low, high } });

describe("judgeDrift", () => {
  it("calls a scenario drifted only when its whole interval lies below the bar", () => {
    expect(judgeScenarioDrift(at(0.92, 0.9, 0.94), 0.97)).toBe("drifted");
    expect(judgeScenarioDrift(at(0.96, 0.94, 0.98), 0.97)).toBe("unclear");
    expect(judgeScenarioDrift(at(0.99, 0.97, 1.01), 0.97)).toBe("within");
    expect(judgeScenarioDrift({ score: 0.95, interval: null }, 0.97)).toBe("drifted");
    expect(judgeScenarioDrift(null, 0.97)).toBe("none");
  });

  it("raises an alarm when any scenario drifted, and lists the drifted ones slowest first", () => {
    const judgement = judgeDrift(
      [
        { name: "chat", estimate: at(0.95, 0.94, 0.96) },
        { name: "decode", estimate: at(0.9, 0.89, 0.91) },
        { name: "prefill", estimate: at(1.0, 0.98, 1.02) },
      ],
      0.97,
    );
    expect(judgement.alarm).toBe(true);
    expect(judgement.drifted.map((entry) => entry.name)).toEqual(["decode", "chat"]);
    expect(judgement.improved).toBe(false);
  });

  it("says a round that scored nothing failed, and raises no alarm", () => {
    const judgement = judgeDrift([{ name: null, estimate: null }], 0.97);
    expect(judgement).toMatchObject({ alarm: false, failed: true, improved: false });
  });

  it("calls main improved only when every scenario is faster beyond doubt", () => {
    expect(judgeDrift([{ name: "a", estimate: at(1.1, 1.05, 1.15) }], 0.97).improved).toBe(true);
    expect(
      judgeDrift(
        [
          { name: "a", estimate: at(1.1, 1.05, 1.15) },
          { name: "b", estimate: at(1.01, 0.99, 1.03) },
        ],
        0.97,
      ).improved,
    ).toBe(false);
  });

  it("reads each scenario of a card, or the round of a card without scenarios", () => {
    const card = makeScenarioRound([
      { name: "decode", speedup: 0.9 },
      { name: "chat", speedup: 1 },
    ]);
    const estimates = readScenarioEstimates(card);
    expect(estimates.map((entry) => entry.name)).toEqual(["decode", "chat"]);
    expect(estimates[0]?.estimate?.score).toBeLessThan(0.95);
    expect(estimates[0]?.estimate?.interval).not.toBeNull();
    const plain = readScenarioEstimates(makeCard([{ speedup: 0.8 }, { speedup: 0.8 }]));
    expect(plain).toHaveLength(1);
    expect(plain[0]?.name).toBeNull();
    expect(plain[0]?.estimate?.score).toBeCloseTo(0.8, 6);
  });
});
