import { describe, expect, it } from "vitest";
import { type ScenarioGateInput, combineScenarioGates, judgeScenario } from "../../src/scoring/combine-scenario-gates.js";

/** A scenario whose own gate passed, with an interval of ±0.05 around its score. */
function scenario(name: string, score: number | null, extra: Partial<ScenarioGateInput> = {}): ScenarioGateInput {
  return {
    name,
    ownGate: { passed: true, reason: "interval low 1.15× ≥ 1.00×" },
    score,
    interval: score === null ? null : { low: score - 0.05, high: score + 0.05 },
    ...extra,
  };
}

const NO_FLOOR = { maxRegression: null };

describe("combineScenarioGates", () => {
  const scenarios = [scenario("decode-c1", 1.2), scenario("chat-rate4", 1.0), scenario("prefill-c32", 0.9)];

  it("reads each scenario's outcome from its interval (above 1x improved, across it unchanged, below it regressed), else its score", () => {
    expect(scenarios.map((one) => judgeScenario(one, NO_FLOOR).outcome)).toEqual(["improved", "unchanged", "regressed"]);
    expect(judgeScenario(scenario("one-prompt", 1.02, { interval: null }), NO_FLOOR).outcome).toBe("improved");
    expect(judgeScenario(scenario("nothing-scored", null), NO_FLOOR).outcome).toBe("none");
  });

  it("passes when every scenario passes its own bar, and fails one that lies wholly below gate.maxRegression", () => {
    expect(combineScenarioGates(scenarios, NO_FLOOR)).toMatchObject({
      passed: true,
      reason: "3 of 3 scenarios passed; improved: decode-c1; regressed: prefill-c32",
      reasons: [],
    });
    const held = combineScenarioGates(scenarios, { maxRegression: 0.97 });
    expect(held.passed).toBe(false);
    expect(held.reason).toBe("2 of 3 scenarios passed; improved: decode-c1; regressed: prefill-c32; failed: prefill-c32");
    expect(held.reasons).toEqual(["prefill-c32: regressed beyond gate.maxRegression, its interval's high end 0.95× < 0.97×"]);
    // Without an interval the score is both ends, and the reason says it is the score.
    expect(judgeScenario(scenario("one-prompt", 0.96, { interval: null }), { maxRegression: 0.97 }).reason).toBe(
      "one-prompt: regressed beyond gate.maxRegression, its score 0.96× < 0.97×",
    );
    // An interval that reaches the floor holds it: only one wholly below fails.
    expect(judgeScenario(scenario("touching", 0.92), { maxRegression: 0.97 }).passed).toBe(true);
  });

  it("fails a scenario on its own gate first, named, with that gate's reason, whatever its interval", () => {
    const own = { passed: false, reason: "the candidate engine failed: candidate engine failed at startup (CUDA out of memory)" };
    const judgement = judgeScenario(scenario("decode-c32", 0.5, { ownGate: own }), { maxRegression: 0.97 });
    expect(judgement).toEqual({ name: "decode-c32", outcome: "regressed", passed: false, reason: `decode-c32: ${own.reason}` });
  });

  it("counts a required scenario the card lacks as one that did not pass, and names it", () => {
    const combined = combineScenarioGates(scenarios.slice(0, 2), NO_FLOOR, ["prefill-c32"]);
    expect(combined.passed).toBe(false);
    expect(combined.reason).toBe("2 of 3 scenarios passed; improved: decode-c1; missing: prefill-c32");
    // The lacking scenario's own words are the reader's to give: the judged ones have no reason to fail.
    expect(combined.reasons).toEqual([]);
    const both = combineScenarioGates(scenarios, { maxRegression: 0.97 }, ["batch-c8", "chat-rate16"]);
    expect(both.reason).toBe(
      "2 of 5 scenarios passed; improved: decode-c1; regressed: prefill-c32; failed: prefill-c32; missing: batch-c8, chat-rate16",
    );
  });
});
