import { describe, expect, it } from "vitest";
import { rescoreCard } from "../../src/scorecard/rescore-card.js";
import { recordedGateSettings, rescoreScenarioCard } from "../../src/scorecard/rescore-scenario-card.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { makeCard } from "../../harness/make-card.js";
import { SAMPLE_TIME_SPENT, makeScenarioRound } from "../support/make-scenario-round.js";

const plain = makeCard([{ speedup: 1.3 }, { speedup: 1.1 }, { candidateTokens: 10 }, { speedup: 1.2 }, { baselineError: "HTTP 500" }]);

describe("rescoreScenarioCard", () => {
  it("re-derives a top level that says passed while a scenario fails as failed", () => {
    const honest = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.8 },
    ]);
    expect(honest.gate.passed).toBe(false);
    const forged: Scorecard = {
      ...honest,
      roundScore: 9,
      gate: { ...honest.gate, passed: true, reason: "2 of 2 scenarios passed", reasons: [] },
    };
    const rescored = rescoreScenarioCard(forged);
    expect(rescored).toEqual(honest);
    expect(rescored.gate.passed).toBe(false);
    expect(rescored.gate.reason).toBe("1 of 2 scenarios passed; improved: decode-c1; regressed: chat-rate16; failed: chat-rate16");
  });

  it("takes the top level's figures from the first scenario, whatever the card put there", () => {
    const honest = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate4", speedup: 1.1 },
    ]);
    const forged: Scorecard = { ...honest, roundScore: 0.5, promptsScored: 1, prompts: honest.prompts.slice(0, 1) };
    const rescored = rescoreScenarioCard(forged);
    expect(rescored.roundScore).toBe(rescored.scenarios?.[0]?.card.roundScore);
    expect(rescored.prompts).toHaveLength(12);
    expect(rescored.gate.passed).toBe(true);
  });

  it("corrects a forged scenario's card as rescoreCard corrects a card without scenarios", () => {
    const honest = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.8 },
    ]);
    const slow = honest.scenarios?.[1]?.card as NonNullable<Scorecard["scenarios"]>[number]["card"];
    const forgedSlow = {
      ...slow,
      roundScore: 1.5,
      promptsScored: 12,
      gate: { ...slow.gate, passed: true, reason: "trust me", reasons: [] },
    };
    const forged: Scorecard = {
      ...honest,
      scenarios: [honest.scenarios?.[0] as NonNullable<Scorecard["scenarios"]>[number], { name: "chat-rate16", card: forgedSlow }],
    };
    const rescored = rescoreScenarioCard(forged);
    expect(rescored.scenarios?.[1]?.card).toEqual(rescoreCard(forgedSlow, { gate: recordedGateSettings(forgedSlow) }));
    expect(rescored.scenarios?.[1]?.card).toEqual(slow);
    expect(rescored.gate.passed).toBe(false);
  });

  it("rescores each scenario under its own recorded bar unless the caller imposes one", () => {
    // 0.95× fails the round's bar (1.0) but passes this scenario's own (0.9).
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "prefill-c32", speedup: 0.95, minRoundScore: 0.9 },
    ]);
    expect(rescoreScenarioCard(card).gate.passed).toBe(true);
    const imposed = rescoreScenarioCard(card, { gateFor: (one) => ({ ...recordedGateSettings(one), minRoundScore: 1 }) });
    expect(imposed.gate.passed).toBe(false);
    expect(imposed.scenarios?.map((scenario) => scenario.card.gate.minRoundScore)).toEqual([1, 1]);
  });

  it("tells the caller's gate which scenario it is for (null for a card without scenarios)", () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 0.99 },
      { name: "chat-rate16", speedup: 0.99 },
    ]);
    const byName = rescoreScenarioCard(card, {
      gateFor: (one, name) => ({ ...recordedGateSettings(one), minRoundScore: name === "chat-rate16" ? 0.98 : 1 }),
    });
    expect(byName.scenarios?.map((scenario) => [scenario.name, scenario.card.gate.minRoundScore, scenario.card.gate.passed])).toEqual([
      ["decode-c1", 1, false],
      ["chat-rate16", 0.98, true],
    ]);
    const names: Array<string | null> = [];
    rescoreScenarioCard(plain, { gateFor: (one, name) => (names.push(name), recordedGateSettings(one)) });
    expect(names).toEqual([null]);
  });

  it("combines under the card's gate.maxRegression, or the one the caller imposes", () => {
    const card = makeScenarioRound(
      [
        { name: "decode-c1", speedup: 1.2 },
        { name: "prefill-c32", speedup: 0.95, minRoundScore: 0.9 },
      ],
      0.97,
    );
    expect(card.gate.passed).toBe(false);
    // The card's own limit is its top level's word, which a forger can drop: a reader that must hold one imposes it.
    const dropped: Scorecard = { ...card, gate: { ...card.gate, maxRegression: null } };
    expect(rescoreScenarioCard(dropped).gate.passed).toBe(true);
    expect(rescoreScenarioCard(dropped, { maxRegression: 0.97 }).gate.passed).toBe(false);
    expect(rescoreScenarioCard(card).gate.reason).toContain("failed: prefill-c32");
    expect(rescoreScenarioCard(card, { maxRegression: 0.9 }).gate.passed).toBe(true);
    expect(rescoreScenarioCard(card, { maxRegression: null }).gate.maxRegression).toBeNull();
  });

  it("keeps the card's record of where the time went", () => {
    const timeSpent = SAMPLE_TIME_SPENT;
    const card = { ...makeScenarioRound([{ name: "decode-c1", speedup: 1.2 }]), timeSpent };
    expect(rescoreScenarioCard(card).timeSpent).toEqual(timeSpent);
  });

  it("gives a card without scenarios exactly what rescoreCard gives", () => {
    const gate = { minRoundScore: 1.15, use: "interval-low" as const, maxUnscored: 0.5, minPrompts: 1 };
    expect(rescoreScenarioCard(plain, { gateFor: () => gate })).toEqual(rescoreCard(plain, { gate }));
    expect(rescoreScenarioCard(plain)).toEqual(rescoreCard(plain, { gate: recordedGateSettings(plain) }));
    expect(rescoreScenarioCard({ ...plain, scenarios: null })).toEqual({
      ...rescoreCard(plain, { gate: recordedGateSettings(plain) }),
      scenarios: null,
    });
  });
});
