import { describe, expect, it } from "vitest";
import { assembleScenarioCard } from "../../../src/scorecard/assemble-scenario-card.js";
import { describeScenarios } from "../../../src/scorecard/render/describe-scenarios.js";
import { makeCard, seedOomFailure, testConfig } from "../../../harness/make-card.js";
import { readExampleCard, slowerCard, underLoad } from "../../support/make-scenario-card.js";

const passing = await readExampleCard("passing-round");
const calibrated = await readExampleCard("calibrated-three-runs");

describe("describeScenarios", () => {
  it("is null for a card without scenarios: it keeps its own headline", () => {
    expect(describeScenarios(passing)).toBeNull();
  });

  it(
    "names the faster scenarios and the one that regressed, with its interval, in the headline, and gives each row its load, prompts " +
      "and verdict",
    () => {
      const card = assembleScenarioCard(
        [
          { name: "chat-rate4", card: underLoad(calibrated, { requestIntervalMs: 250, arrival: "poisson" }) },
          { name: "chat-rate16", card: underLoad(slowerCard(), { requestIntervalMs: 62.5, arrival: "poisson" }) },
          {
            name: "decode-c1",
            card: underLoad(passing, { concurrency: 1, synthetic: { inputTokens: 128, outputTokens: 256, count: 12, seed: 1 } }),
          },
        ],
        0.97,
      );
      const described = describeScenarios(card);
      expect(described?.leadsWithFailure).toBe(false);
      expect(described?.headline).toBe(
        "❌ 2 of 3 scenarios passed — chat-rate4 1.12× faster; decode-c1 1.26× faster; chat-rate16 regressed 0.91× [0.90×, 0.92×]",
      );
      expect(
        described?.rows.map(({ name, load, prompts, score, interval, mark, verdict }) => [
          name,
          load,
          prompts,
          score,
          interval,
          mark,
          verdict,
        ]),
      ).toEqual([
        ["chat-rate4", "one every 250 ms on average (Poisson)", "12 from a prompt file", "1.12×", "[1.09×, 1.15×]", "✅", "passed"],
        [
          "chat-rate16",
          "one every 62.5 ms on average (Poisson)",
          "12 from a prompt file",
          "0.91×",
          "[0.90×, 0.92×]",
          "❌",
          "interval low 0.90× < 1.00×",
        ],
        ["decode-c1", "concurrency 1", "12 synthetic, 128→256 tokens", "1.26×", "[1.23×, 1.29×]", "✅", "passed"],
      ]);
    },
  );

  it("says a scenario that passed its own lower bar failed the round's gate.maxRegression", () => {
    const card = assembleScenarioCard(
      [
        { name: "chat", card: passing },
        { name: "prefill", card: slowerCard({ minRoundScore: 0.85 }) },
      ],
      0.97,
    );
    const described = describeScenarios(card);
    expect(described?.rows[1]?.card.gate.passed).toBe(true);
    expect(described?.rows[1]?.verdict).toBe("regressed beyond gate.maxRegression 0.97×");
    expect(described?.headline).toBe("❌ 1 of 2 scenarios passed — chat 1.26× faster; prefill regressed 0.91× [0.90×, 0.92×]");
  });

  it("passes with no scenario faster or slower when every interval holds 1×, and counts past a few names", () => {
    const unchanged = makeCard(
      [1.02, 0.98, 1.01, 0.99, 1.0, 1.03, 0.97, 1.0, 1.01, 0.99, 1.02, 0.98].map((speedup) => ({ speedup })),
      {
        config: { ...testConfig, gate: { ...testConfig.gate, minRoundScore: 0.9 } },
      },
    );
    const quiet = describeScenarios(
      assembleScenarioCard(
        [
          { name: "a", card: unchanged },
          { name: "b", card: unchanged },
        ],
        null,
      ),
    );
    expect(quiet?.headline).toBe("✅ 2 of 2 scenarios passed — none faster or slower beyond its interval");

    const many = describeScenarios(
      assembleScenarioCard(
        Array.from({ length: 8 }, (_, index) => ({ name: `s${index + 1}`, card: index < 5 ? slowerCard() : passing })),
        null,
      ),
    );
    // The failures first, three of them; one faster one; the rest counted.
    expect(many?.headline).toBe(
      "❌ 3 of 8 scenarios passed — s6 1.26× faster; s1 regressed 0.91× [0.90×, 0.92×]; s2 regressed 0.91× [0.90×, 0.92×]; s3 " +
        "regressed 0.91× [0.90×, 0.92×]; +4 more in the table",
    );
  });

  it("leads with the failure, whatever was scored before it, and names the candidate's failure first in the headline", () => {
    const failure = seedOomFailure();
    const dead = describeScenarios(
      assembleScenarioCard(
        [
          { name: "chat", card: makeCard(passingPlans(), { failure }) },
          { name: "decode", card: makeCard(passingPlans(), { failure }) },
        ],
        null,
      ),
    );
    expect(dead?.leadsWithFailure).toBe(true);
    expect(dead?.headline).toBe(
      "❌ No prompt scores: candidate engine died before becoming healthy (CUDA out of memory during CUDA graph capture)",
    );

    const midway = { ...failure, stage: "benchmark" as const, prompt: { number: 3, id: "prompt-003" } };
    const scored = makeCard(passingPlans(), { failure: midway });
    const named = { ...scored, failure: { ...midway, scenario: "decode" } };
    const described = describeScenarios(
      assembleScenarioCard(
        [
          { name: "chat", card: named },
          { name: "decode", card: named },
        ],
        null,
      ),
    );
    // #39: a crash mid-round leads too, its news first, then how the scenarios fared.
    expect(described?.leadsWithFailure).toBe(true);
    expect(described?.headline).toBe(
      "❌ Candidate engine died during prompt 3 of scenario decode's benchmark (CUDA out of memory during CUDA graph capture) — 0 of " +
        "2 scenarios passed",
    );
    expect(described?.rows.map((row) => row.verdict)).toEqual(["the candidate engine failed", "the candidate engine failed"]);
  });

  it("gives no verdict on any scenario when the baseline failed, leading with that failure", () => {
    const failure = { ...seedOomFailure(), engine: "baseline" as const, stage: "benchmark" as const };
    const card = makeCard(passingPlans(), { failure });
    const named = { ...card, failure: { ...failure, scenario: "decode" } };
    const described = describeScenarios(
      assembleScenarioCard(
        [
          { name: "chat", card: named },
          { name: "decode", card: named },
        ],
        null,
      ),
    );
    expect(described?.leadsWithFailure).toBe(true);
    expect(described?.headline).toMatch(
      /^⚠️ No verdict: the baseline failed, not the patch \(baseline engine died during scenario decode's benchmark: /,
    );
    expect(described?.rows.map((row) => `${row.mark} ${row.verdict}`)).toEqual(["⚠️ no verdict", "⚠️ no verdict"]);
  });
});

function passingPlans(): Array<{ speedup: number }> {
  return [1.31, 1.18, 1.25, 1.12, 1.4, 1.22, 1.27, 1.3, 1.2, 1.25, 1.24, 1.29].map((speedup) => ({ speedup }));
}
