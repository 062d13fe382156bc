import { describe, expect, it } from "vitest";
import { combineScenarioGates, judgeScenario } from "../../src/scorecard/combine-scenario-gates.js";
import { makeScenarioRound } from "../support/make-scenario-round.js";

/** The scenarios of a card made as a round makes one: every prompt the given times faster, 12 prompts, a bar of 1.0. */
function scenariosOf(plans: Parameters<typeof makeScenarioRound>[0]): NonNullable<ReturnType<typeof makeScenarioRound>["scenarios"]> {
  const scenarios = makeScenarioRound(plans).scenarios;
  if (!scenarios) throw new Error("expected scenarios");
  return scenarios;
}

describe("combineScenarioGates", () => {
  const scenarios = scenariosOf([
    { name: "decode-c1", speedup: 1.2 },
    { name: "chat-rate4", speedup: 1.0, minRoundScore: 0.9 },
    { name: "prefill-c32", speedup: 0.9, minRoundScore: 0.85 },
  ]);

  it("reads each scenario's outcome from its interval: above 1x improved, across it unchanged, below it regressed", () => {
    expect(scenarios.map((scenario) => judgeScenario(scenario, null).outcome)).toEqual(["improved", "unchanged", "regressed"]);
  });

  it("passes when every scenario passes its own bar, and fails one that lies wholly below gate.maxRegression", () => {
    expect(combineScenarioGates(scenarios, null)).toMatchObject({
      passed: true,
      reason: "3 of 3 scenarios passed; improved: decode-c1; regressed: prefill-c32",
      reasons: [],
    });
    const held = combineScenarioGates(scenarios, 0.97);
    expect(held.passed).toBe(false);
    expect(held.reason).toBe("2 of 3 scenarios passed; improved: decode-c1; regressed: prefill-c32; failed: prefill-c32");
    expect(held.reasons).toEqual([
      expect.stringMatching(/^prefill-c32: regressed beyond gate\.maxRegression, its interval's high end 0\.9\d×/),
    ]);
  });

  it("counts a required scenario the card lacks as one that did not pass, and names it", () => {
    const combined = combineScenarioGates(scenarios.slice(0, 2), null, ["prefill-c32"]);
    expect(combined.passed).toBe(false);
    expect(combined.reason).toBe("2 of 3 scenarios passed; improved: decode-c1; missing: prefill-c32");
    // The lacking scenario's own words are the reader's to give: the judged ones have no reason to fail.
    expect(combined.reasons).toEqual([]);
    const both = combineScenarioGates(scenarios, 0.97, ["batch-c8", "chat-rate16"]);
    expect(both.reason).toBe(
      "2 of 5 scenarios passed; improved: decode-c1; regressed: prefill-c32; failed: prefill-c32; missing: batch-c8, chat-rate16",
    );
  });
});
