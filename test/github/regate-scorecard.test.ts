import { describe, expect, it } from "vitest";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { TEST_DOCS_BASE_URL, makeCard, seedOomFailure, testConfig } from "../support/make-card.js";

const plans = [{ speedup: 1.3 }, { speedup: 1.1 }, { candidateTokens: 10 }, { speedup: 1.2 }, { baselineError: "HTTP 500" }];

describe("regateScorecard", () => {
  it("gives the card a fresh round would give under the repository's threshold", () => {
    const strict = { ...testConfig, gate: { ...testConfig.gate, minRoundScore: 1.5 } };
    const fresh = makeCard(plans, { config: strict });
    expect(regateScorecard(makeCard(plans), strict.gate, TEST_DOCS_BASE_URL)).toEqual(fresh);
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
    expect(regateScorecard(forged, testConfig.gate, TEST_DOCS_BASE_URL)).toEqual(honest);
  });

  it("recomputes the diverged and implausible counts and the median agreement from the prompts", () => {
    const honest = makeCard(plans);
    const prompts = honest.prompts.map((prompt, index) => (index === 0 ? { ...prompt, status: "diverged" as const, score: 0, agreement: 0.1 } : { ...prompt, agreement: 1 }));
    const forged = { ...honest, prompts, diverged: 0, implausible: 0, medianAgreement: 1 };
    const regated = regateScorecard(forged, testConfig.gate, TEST_DOCS_BASE_URL);
    expect([regated.diverged, regated.implausible, regated.medianAgreement]).toEqual([1, 0, 1]);
    expect(regated.promptsScored).toBe(honest.promptsScored - 1);
  });

  it("keeps a failed candidate's round without a score, and its gate closed", () => {
    const failed = makeCard(plans, { failure: seedOomFailure() });
    const regated = regateScorecard(failed, { minRoundScore: 0.5, use: "round-score" }, null);
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
    const regated = regateScorecard(card, { minRoundScore: 1, use: "round-score" }, card.docsBaseUrl);
    expect(regated.roundScore).toBeCloseTo(1.5, 10);
    expect(regated.gate.passed).toBe(false);
    expect(regated).toEqual(card);
  });

  it("links the troubleshooting pages the reader names, never the ones the artifact names", () => {
    const card = makeCard(plans, { failure: seedOomFailure() });
    const forged = { ...card, docsBaseUrl: "https://attacker.example/phish/docs/troubleshooting/" };
    const own = "https://github.com/speedgate/speedgate/blob/v0.1.0/docs/troubleshooting/";
    expect(regateScorecard(forged, testConfig.gate, own).docsBaseUrl).toBe(own);
    expect(regateScorecard(forged, testConfig.gate, null).docsBaseUrl).toBeNull();
  });
});
