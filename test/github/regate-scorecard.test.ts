import { describe, expect, it } from "vitest";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { makeCard, seedOomFailure, testConfig } from "../support/make-card.js";

const plans = [{ speedup: 1.3 }, { speedup: 1.1 }, { candidateTokens: 10 }, { speedup: 1.2 }, { baselineError: "HTTP 500" }];

describe("regateScorecard", () => {
  it("gives the card a fresh round would give under the repository's threshold", () => {
    const strict = { ...testConfig, gate: { ...testConfig.gate, minRoundScore: 1.5 } };
    const fresh = makeCard(plans, { config: strict });
    expect(regateScorecard(makeCard(plans), strict.gate)).toEqual(fresh);
    expect(fresh.gate.passed).toBe(false);
  });

  it("ignores the score, counts and verdict an artifact claims", () => {
    const honest = makeCard(plans);
    const forged = {
      ...honest,
      roundScore: 9,
      promptsScored: 5,
      zeroedTotal: 0,
      gate: { ...honest.gate, minRoundScore: 0.01, passed: true, reason: "trust me" },
    };
    expect(regateScorecard(forged, testConfig.gate)).toEqual(honest);
  });

  it("keeps a failed candidate's round without a score, and its gate closed", () => {
    const failed = makeCard(plans, { failure: seedOomFailure() });
    const regated = regateScorecard(failed, { minRoundScore: 0.5, use: "round-score", maxUnscored: 0.1, minPrompts: 1 });
    expect(regated.roundScore).toBeNull();
    expect(regated.gate.passed).toBe(false);
    expect(regated.gate.reason).toContain("candidate engine failed at startup");
  });

  it("keeps the gate closed when the Docker daemon went away mid-benchmark, however good the prompts before it", () => {
    const daemonLost = {
      ...seedOomFailure(),
      stage: "benchmark" as const,
      kind: "infrastructure" as const,
      label: "the Docker daemon went away (infrastructure, not the patch)",
      logTail: [],
    };
    const card = makeCard([{ speedup: 1.5 }, { speedup: 1.5 }, { speedup: 1.5 }], { failure: daemonLost });
    const regated = regateScorecard(card, { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 });
    expect(regated.roundScore).toBeCloseTo(1.5, 5);
    expect(regated.gate.passed).toBe(false);
    expect(regated).toEqual(card);
  });
});
