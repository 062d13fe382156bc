import { describe, expect, it } from "vitest";
import { readScenarioGate } from "../../src/scorecard/read-scenario-gate.js";
import { makeScenarioRound } from "../support/make-scenario-round.js";

describe("readScenarioGate", () => {
  it("reads a scenario card's own gate, score and interval, as a round makes them, for the scenario rule", () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "prefill-c32", speedup: 0.9, minRoundScore: 0.95 },
    ]);
    const [decode, prefill] = (card.scenarios ?? []).map(readScenarioGate);
    const decodeCard = card.scenarios?.[0]?.card;
    expect(decode).toEqual({
      name: "decode-c1",
      ownGate: { passed: true, reason: decodeCard?.gate.reason },
      score: decodeCard?.roundScore,
      interval: { low: decodeCard?.scoreInterval?.low, high: decodeCard?.scoreInterval?.high },
    });
    expect(decode?.ownGate.reason).toMatch(/^interval low 1\.\d+× ≥ 1\.00×/);
    expect(prefill?.ownGate.passed).toBe(false);
    expect(prefill?.ownGate.reason).toBe(card.scenarios?.[1]?.card.gate.reason);
    expect(prefill?.score).toBeCloseTo(0.9, 1);
  });

  it("reads no interval from a card too small for one", () => {
    const card = makeScenarioRound([{ name: "tiny", speedup: 1.1 }]);
    const scenario = card.scenarios?.[0];
    if (!scenario) throw new Error("expected a scenario");
    const gate = readScenarioGate({ ...scenario, card: { ...scenario.card, scoreInterval: null } });
    expect(gate.interval).toBeNull();
    expect(gate.score).toBe(scenario.card.roundScore);
  });
});
