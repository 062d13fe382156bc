import { describe, expect, it } from "vitest";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { parseScorecardJson } from "../../src/scorecard/read-scorecard.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { TEST_DOCS_BASE_URL, makeCard, seedOomFailure, testConfig } from "../../harness/make-card.js";
import { makeScenarioRound } from "../support/make-scenario-round.js";
import { toVersion1 } from "../support/version-one-card.js";

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

  it("recomputes the diverged and implausible counts and the median agreement from the prompts' runs", () => {
    const honest = makeCard(plans);
    // A run's divergence is decided by the run (the card keeps no answers): the prompt's own status and agreement are never read back.
    const diverged = (prompt: (typeof honest.prompts)[number]) => ({
      ...prompt,
      agreement: 1,
      runs: prompt.runs.map((run) => ({
        ...run,
        status: "diverged" as const,
        reason: "answers part at token 2 of 256",
        agreedTokens: 1,
        baselineMs: null,
        candidateMs: null,
      })),
    });
    const agreeing = (prompt: (typeof honest.prompts)[number]) => ({
      ...prompt,
      agreement: 0,
      runs: prompt.runs.map((run) => ({ ...run, agreedTokens: run.comparedTokens })),
    });
    const prompts = honest.prompts.map((prompt, index) => (index === 0 ? diverged(prompt) : agreeing(prompt)));
    const forged = { ...honest, prompts, diverged: 0, implausible: 0, medianAgreement: 0 };
    const regated = regateScorecard(forged, testConfig.gate, TEST_DOCS_BASE_URL);
    expect([regated.diverged, regated.implausible, regated.medianAgreement]).toEqual([1, 0, 1]);
    expect(regated.prompts[0]?.agreement).toBeCloseTo(1 / 256, 10);
    expect(regated.promptsScored).toBe(honest.promptsScored - 1);
  });

  it("keeps a failed candidate's round without a score, and its gate closed", () => {
    const failed = makeCard(plans, { failure: seedOomFailure() });
    const regated = regateScorecard(failed, { minRoundScore: 0.5, use: "round-score", maxUnscored: 0.1, minPrompts: 1 }, null);
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
    const regated = regateScorecard(card, { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 }, card.docsBaseUrl);
    expect(regated.roundScore).toBeCloseTo(1.5, 5);
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

describe("regateScorecard recomputes from the times at k, never from a card's own scores", () => {
  const twelve = Array.from({ length: 12 }, (_, index) => ({ speedup: 1.1 + index * 0.01 }));
  const gate = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 };

  it("ignores forged per-prompt scores and speedups", () => {
    const honest = makeCard(twelve);
    const forged = { ...honest, prompts: honest.prompts.map((prompt) => ({ ...prompt, score: 3, speedup: 3 })) };
    expect(regateScorecard(forged, gate, TEST_DOCS_BASE_URL)).toEqual(regateScorecard(honest, gate, TEST_DOCS_BASE_URL));
    expect(regateScorecard(forged, gate, TEST_DOCS_BASE_URL).roundScore).toBeLessThan(1.2);
  });

  it("scores a prompt by the times at k the card keeps", () => {
    const card = makeCard(twelve);
    const faster = {
      ...card,
      prompts: card.prompts.map((prompt) => ({
        ...prompt,
        runs: prompt.runs.map((run) => ({ ...run, candidateMs: (run.candidateMs ?? 0) / 2 })),
      })),
    };
    expect(regateScorecard(faster, gate, TEST_DOCS_BASE_URL).roundScore).toBeCloseTo(2 * (card.roundScore as number), 5);
  });

  it("corrects a status the tokens contradict: a truncated answer relabelled scored, a slow prompt relabelled excluded", () => {
    const honest = makeCard([...twelve, { candidateTokens: 40 }]);
    const truncated = honest.prompts.length - 1;
    const relabelled = {
      ...honest,
      prompts: honest.prompts.map((prompt, index) =>
        index === truncated
          ? {
              ...prompt,
              status: "scored" as const,
              runs: prompt.runs.map((run) => ({
                ...run,
                status: "scored" as const,
                comparedTokens: 40,
                baselineMs: 900,
                candidateMs: 100,
              })),
            }
          : index === 0
            ? { ...prompt, status: "excluded" as const, runs: prompt.runs.map((run) => ({ ...run, status: "excluded" as const })) }
            : prompt,
      ),
    };
    const regated = regateScorecard(relabelled, gate, TEST_DOCS_BASE_URL);
    expect(regated.prompts[truncated]).toMatchObject({
      status: "below_tolerance",
      score: 0,
      reason: "answered 40 of 256 tokens (tolerance 90%)",
    });
    expect(regated.prompts[0]?.status).toBe("scored");
    expect(regated.excluded).toBe(0);
  });

  it("reads a version-1 artifact: converted, scored with its own prompt scores, and gated by today's rule", () => {
    const card = makeCard(twelve);
    const old = parseScorecardJson(JSON.stringify(toVersion1(card)), "scorecard.json");
    expect(old).toMatchObject({ schemaVersion: 2, convertedFrom: 1, settings: { runs: 1 } });
    const regated = regateScorecard(old, gate, TEST_DOCS_BASE_URL);
    expect(regated.roundScore).toBeCloseTo(card.roundScore as number, 5);
    expect(regated.gate).toMatchObject({ use: "interval-low", passed: card.gate.passed, minPrompts: 10 });
    expect(regated.prompts.every((prompt) => prompt.runs.length === 1)).toBe(true);
    // Version 1 had no minimum: three prompts that passed then do not pass now.
    const small = parseScorecardJson(JSON.stringify(toVersion1(makeCard(twelve.slice(0, 3)))), "scorecard.json");
    expect(regateScorecard(small, gate, TEST_DOCS_BASE_URL).gate.reasons).toContain(
      "too few prompts for a verdict: 3 compared, gate.minPrompts is 10",
    );
  });
});

describe("regateScorecard and the calibration on a card", () => {
  const twelve = Array.from({ length: 12 }, () => ({ speedup: 1.05 }));
  const scores = [0.99, 1.0, 1.01, 1.0, 0.98, 1.02, 1.0, 0.99, 1.01, 1.0];

  function calibrated(overrides: Partial<NonNullable<ReturnType<typeof makeCard>["gate"]["calibration"]>> = {}) {
    const card = makeCard(twelve);
    return {
      ...card,
      gate: {
        ...card.gate,
        use: "noise-floor" as const,
        calibration: {
          measuredAt: "2026-11-20T09:00:00.000Z",
          engine: card.engine,
          runner: card.provenance.runner,
          gpu: card.provenance.gpu,
          baselineImage: card.provenance.baselineImage,
          baselineImageId: card.provenance.baselineImageId,
          promptsHash: "q".repeat(64),
          settings: {
            ...card.settings,
            concurrency: card.settings.concurrency ?? null,
            order: "counterbalanced" as const,
            clientWarmup: true,
            seed: 1,
            warmupRequests: 0,
            prompts: 12,
          },
          scores,
          noiseFloor: 0,
          detectableSpeedup: 0,
          problems: [],
          notes: [],
          ...overrides,
        },
      },
      provenance: { ...card.provenance, promptsHash: "q".repeat(64) },
    };
  }
  const gate = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 };

  it("recomputes the noise floor from the A/A scores instead of trusting the card's", () => {
    const regated = regateScorecard(calibrated(), gate, TEST_DOCS_BASE_URL);
    expect(regated.gate.use).toBe("noise-floor");
    expect(regated.gate.calibration?.noiseFloor).toBeGreaterThan(0.02);
    expect(regated.gate.bar).toBeCloseTo(1 + (regated.gate.calibration?.noiseFloor ?? 0), 12);
    expect(regated.gate.passed).toBe(true);
  });

  it("keeps the gate closed when the calibration was measured on another GPU, whatever the card says", () => {
    const regated = regateScorecard(calibrated({ gpu: "NVIDIA A100-SXM4-80GB" }), gate, TEST_DOCS_BASE_URL);
    expect(regated.gate.passed).toBe(false);
    expect(regated.gate.calibration?.problems).toEqual([
      'it was measured on GPU "NVIDIA A100-SXM4-80GB", this round ran on "NVIDIA H100 80GB HBM3"',
    ]);
    expect(regated.gate.reason).toContain("the calibration does not fit this round");
  });

  it("notes another runner with the same GPU without closing the gate", () => {
    const regated = regateScorecard(calibrated({ runner: "gpu-runner-7" }), gate, TEST_DOCS_BASE_URL);
    expect(regated.gate.passed).toBe(true);
    expect(regated.gate.calibration?.notes).toEqual(['measured on runner "gpu-runner-7", this round ran on "gpu-runner-3" (the same GPU)']);
  });
});

describe("regateScorecard: the agreement rules, from the card's per-run data", () => {
  const twenty = Array.from({ length: 20 }, () => ({ speedup: 1.3 }));
  type Run = Scorecard["prompts"][number]["runs"][number];
  /** The card with every run rewritten, as an artifact could hold it. */
  const withRuns = (card: Scorecard, rewrite: (run: Run, prompt: number) => Run): Scorecard => ({
    ...card,
    prompts: card.prompts.map((prompt, index) => ({ ...prompt, runs: prompt.runs.map((run) => rewrite(run, index)) })),
  });

  it("fails a 1.3× engine that cuts exactly 2 of 20 answers short (within gate.maxUnscored 10%): the baseline never did", () => {
    const card = makeCard([...twenty.slice(0, 18), { candidateTokens: 100 }, { candidateTokens: 100 }]);
    expect(card.roundScore).toBeGreaterThan(1.2);
    expect(card.unexplained).toBe(2);
    expect(card.gate.passed).toBe(false);
    expect(card.gate.reasons).toEqual([
      "2 of 20 prompts (10%) were cut short or parted where the baseline's own answers are not (below tolerance: prompt-019, " +
        "prompt-020), more than gate.maxUnexplained 0%",
    ]);
    // The repository may allow it; the re-gate applies its setting, and its own minAgreement too.
    expect(regateScorecard(card, { ...testConfig.gate, maxUnexplained: 0.1 }, null).gate.passed).toBe(true);
  });

  it("re-derives a parting the card calls scored, and the median agreement, from agreedTokens and the times at k", () => {
    const card = makeCard(twenty);
    const regated = regateScorecard(
      withRuns(card, (run) => ({ ...run, agreedTokens: 64 })),
      testConfig.gate,
      null,
    );
    expect(regated.diverged).toBe(20);
    expect(regated.prompts[0]?.reason).toBe(
      "answers part at token 65 of 256: they agree on 25% of it, no more than bench.minPromptAgreement 50%",
    );
    expect(regated.medianAgreement).toBe(0.25);
    expect(regated.gate.passed).toBe(false);
    const halfway = withRuns(card, (run) => ({ ...run, agreedTokens: 160 }));
    expect(regateScorecard(halfway, testConfig.gate, null).gate.reasons).toEqual([
      "median agreement 62.5% < gate.minAgreement 100%: most answers are not the baseline's over the compared length",
    ]);
    expect(regateScorecard(halfway, { ...testConfig.gate, minAgreement: 0.6 }, null).gate.passed).toBe(true);
  });

  it("reads an older card, which timed a parting answer over its shared start, as parting there", () => {
    const card = makeCard(twenty);
    // Written before agreedTokens: comparedTokens below min(n_b, n_c) is the shared start it was timed over.
    const older = withRuns(card, ({ agreedTokens: _agreed, ...run }, index) => ({
      ...run,
      comparedTokens: index < 12 ? 17 : run.comparedTokens,
    }));
    const regated = regateScorecard(older, testConfig.gate, null);
    expect(regated.diverged).toBe(12);
    expect(regated.prompts[0]?.status).toBe("diverged");
    expect(regated.prompts[19]?.status).toBe("scored");
    expect(regated.gate.passed).toBe(false);
    // Without a sign of parting, an older card is read as agreeing, and re-gates as before.
    const unmarked = withRuns(card, ({ agreedTokens: _agreed, ...run }) => run);
    expect(regateScorecard(unmarked, testConfig.gate, null).gate.passed).toBe(card.gate.passed);
  });
});

describe("regateScorecard: a card with scenarios", () => {
  const repoGate = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 };

  it("applies the repository's bar to every scenario, over the bar a scenario records", () => {
    // 0.95× passes the bar the scenario records (0.9), which is the submitter's word: the repository's 1.0 holds.
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "prefill-c32", speedup: 0.95, minRoundScore: 0.9 },
    ]);
    expect(card.gate.passed).toBe(true);
    const regated = regateScorecard(card, repoGate, TEST_DOCS_BASE_URL);
    expect(regated.gate.passed).toBe(false);
    expect(regated.scenarios?.map((scenario) => [scenario.name, scenario.card.gate.minRoundScore, scenario.card.gate.passed])).toEqual([
      ["decode-c1", 1, true],
      ["prefill-c32", 1, false],
    ]);
    expect(regated.gate.reason).toBe("1 of 2 scenarios passed; improved: decode-c1; regressed: prefill-c32; failed: prefill-c32");
    expect(regateScorecard(card, { ...repoGate, minRoundScore: 0.9 }, TEST_DOCS_BASE_URL).gate.passed).toBe(true);
  });

  it("fails a top level forged to pass while a scenario fails", () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.8 },
    ]);
    const forged: Scorecard = { ...card, gate: { ...card.gate, passed: true, reason: "2 of 2 scenarios passed", reasons: [] } };
    // Each scenario also says which settings decided its bar: here the app's, as no round config was read.
    const fromApp = { settings: "app-settings", path: null } as const;
    expect(regateScorecard(forged, repoGate, TEST_DOCS_BASE_URL)).toEqual({
      ...card,
      scenarios: card.scenarios?.map((scenario) => ({ ...scenario, barFrom: fromApp })),
    });
  });

  it("holds every scenario to the repository's gate.maxRegression, else to the card's own", () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "prefill-c32", speedup: 0.95 },
    ]);
    const lenient = { ...repoGate, minRoundScore: 0.9 };
    expect(regateScorecard(card, lenient, null).gate.passed).toBe(true);
    const held = regateScorecard(card, { ...lenient, maxRegression: 0.97 }, null);
    expect(held.gate).toMatchObject({ passed: false, maxRegression: 0.97 });
    expect(held.gate.reasons).toEqual([expect.stringMatching(/^prefill-c32: regressed beyond gate\.maxRegression/) as string]);
    const recorded = makeScenarioRound(
      [
        { name: "decode-c1", speedup: 1.2 },
        { name: "prefill-c32", speedup: 0.95 },
      ],
      0.97,
    );
    expect(regateScorecard(recorded, lenient, null).gate.passed).toBe(false);
  });

  it("gives the rule each scenario's own calibration calls for when the repository names none", () => {
    const card = makeScenarioRound([{ name: "decode-c1", speedup: 1.2 }]);
    expect(regateScorecard(card, repoGate, null).scenarios?.[0]?.card.gate.use).toBe("interval-low");
    expect(regateScorecard(card, { ...repoGate, use: "round-score" }, null).scenarios?.[0]?.card.gate.use).toBe("round-score");
  });

  it("links every scenario's troubleshooting pages where the reader says", () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate4", speedup: 1.1 },
    ]);
    const phish = "https://attacker.example/phish/docs/troubleshooting/";
    const forged: Scorecard = {
      ...card,
      docsBaseUrl: phish,
      scenarios: card.scenarios?.map((scenario) => ({ ...scenario, card: { ...scenario.card, docsBaseUrl: phish } })),
    };
    const regated = regateScorecard(forged, repoGate, null);
    expect([regated.docsBaseUrl, ...(regated.scenarios ?? []).map((scenario) => scenario.card.docsBaseUrl)]).toEqual([null, null, null]);
  });
});

describe("regateScorecard: the repository's bar per scenario (gate.scenarios)", () => {
  const repoGate = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 };
  const declared = { ...repoGate, scenarios: { "decode-c1": { minRoundScore: 1 }, "chat-rate16": { minRoundScore: 0.98 } } };
  /** A "must not regress" scenario at 0.99× beside a "must improve" one at 1.2×. */
  const card = makeScenarioRound([
    { name: "decode-c1", speedup: 1.2 },
    { name: "chat-rate16", speedup: 0.99 },
  ]);
  const bars = (regated: Scorecard) =>
    regated.scenarios?.map((scenario) => [scenario.name, scenario.card.gate.minRoundScore, scenario.card.gate.passed]);

  it("holds each scenario to the repository's entry for its name, over the repository's gate", () => {
    expect(regateScorecard(card, repoGate, null).gate.passed).toBe(false);
    const regated = regateScorecard(card, declared, null);
    expect(bars(regated)).toEqual([
      ["decode-c1", 1, true],
      ["chat-rate16", 0.98, true],
    ]);
    expect(regated.gate).toMatchObject({ passed: true, reason: "2 of 2 scenarios passed; improved: decode-c1", reasons: [] });
  });

  it("never takes the bar a scenario records: a forged card that lowers its own still meets the repository's entry", () => {
    const lowered = makeScenarioRound([
      { name: "decode-c1", speedup: 0.95, minRoundScore: 0.5 },
      { name: "chat-rate16", speedup: 0.95, minRoundScore: 0.5 },
    ]);
    expect(lowered.gate.passed).toBe(true);
    const regated = regateScorecard(lowered, declared, null);
    expect(bars(regated)).toEqual([
      ["decode-c1", 1, false],
      ["chat-rate16", 0.98, false],
    ]);
  });

  it("takes from an entry only the fields it sets, the rest (and the rule) from the repository's gate", () => {
    const regated = regateScorecard(
      card,
      { ...declared, use: "round-score", scenarios: { "chat-rate16": { minPrompts: 12 }, "decode-c1": { use: "interval-low" } } },
      null,
    );
    const [decode, chat] = regated.scenarios ?? [];
    expect(chat?.card.gate).toMatchObject({ minRoundScore: 1, minPrompts: 12, maxUnscored: 0.1, use: "round-score" });
    expect(decode?.card.gate).toMatchObject({ minRoundScore: 1, minPrompts: 10, use: "interval-low" });
    expect(
      regateScorecard(card, { ...declared, scenarios: { "chat-rate16": { minPrompts: 13 } } }, null).scenarios?.[1]?.card.gate.reasons,
    ).toContain("too few prompts for a verdict: 12 compared, gate.minPrompts is 13");
  });

  it("gates a scenario the repository does not name under the repository's gate alone, and does not require it", () => {
    const three = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.99 },
      { name: "prefill-c32", speedup: 0.99, minRoundScore: 0.9 },
    ]);
    const regated = regateScorecard(three, declared, null);
    expect(bars(regated)?.[2]).toEqual(["prefill-c32", 1, false]);
    expect(regated.gate.reason).toBe("2 of 3 scenarios passed; improved: decode-c1; failed: prefill-c32");
  });

  it("fails a card that dropped a declared scenario, naming it and what to fix, and counts it among the scenarios", () => {
    // The failing scenario left out of the artifact: what remains passes, the round does not.
    const failing = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.8 },
    ]);
    const dropped: Scorecard = { ...failing, scenarios: failing.scenarios?.slice(0, 1) };
    const regated = regateScorecard(dropped, declared, null);
    expect(regated.gate.passed).toBe(false);
    expect(regated.gate.reason).toBe("1 of 2 scenarios passed; improved: decode-c1; missing: chat-rate16");
    expect(regated.gate.reasons).toEqual([
      "the card has no scenario chat-rate16, which the repository's app config declares (gate.scenarios): add it to the round " +
        "config's scenarios under the same name; if the round config has it, this card is not the one the round made",
    ]);
    expect(regateScorecard(dropped, { ...declared, scenarios: { "decode-c1": {} } }, null).gate.passed).toBe(true);
  });

  it("fails a card without scenarios, or with scenarios null, when the repository declares some", () => {
    const reason =
      "the repository's app config declares scenarios decode-c1, chat-rate16 (gate.scenarios) and the card has none: add them to the " +
      "round config's scenarios under the same names; if the round config has them, this card is not the one the round made";
    const { scenarios: _scenarios, ...stripped } = card;
    for (const forged of [stripped, { ...card, scenarios: null }, makeCard(Array.from({ length: 12 }, () => ({ speedup: 1.3 })))]) {
      const regated = regateScorecard(forged, declared, null);
      expect(regated.gate).toMatchObject({ passed: false, reason, reasons: [reason] });
    }
  });

  it("keeps the card's own reasons beside the missing scenario's", () => {
    const failing = makeScenarioRound([
      { name: "decode-c1", speedup: 0.8 },
      { name: "prefill-c32", speedup: 1.2 },
    ]);
    const regated = regateScorecard(failing, declared, null);
    expect(regated.gate.reason).toBe(
      "1 of 3 scenarios passed; improved: prefill-c32; regressed: decode-c1; failed: decode-c1; missing: chat-rate16",
    );
    expect(regated.gate.reasons).toEqual([
      expect.stringMatching(/^the card has no scenario chat-rate16/) as string,
      expect.stringMatching(/^decode-c1: /) as string,
    ]);
  });
});

/*
 * #39: the round config made the workloads a pull request does not target guards, the app's settings did not, and
 * the check failed pull requests whose card passed. The app's settings still decide (a card is the pull request's
 * word), so they take the role too; and a card that claims a guard, or a wide margin, does not get it from the app.
 */
describe("regateScorecard: a scenario's role", () => {
  const repoGate = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 };
  const roles = (regated: Scorecard) =>
    regated.scenarios?.map((scenario) => [scenario.name, scenario.card.gate.role ?? "target", scenario.card.gate.passed]);

  it("passes a guard within noise of 1.0 when the repository's settings name it a guard, as the card did", () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.97, role: "guard" },
    ]);
    expect(card.gate.passed).toBe(true);
    const guarded = regateScorecard(card, { ...repoGate, scenarios: { "chat-rate16": { role: "guard" } } }, null);
    expect(roles(guarded)).toEqual([
      ["decode-c1", "target", true],
      ["chat-rate16", "guard", true],
    ]);
    expect(guarded.gate.passed).toBe(true);
    expect(guarded.scenarios?.[1]?.card.gate.bar).toBe(0.95);
  });

  it("never takes a role or margin a card claims: a scenario the repository does not name a guard is a target", () => {
    const claimed = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.6, role: "guard", margin: 0.5 },
    ]);
    expect(claimed.gate.passed).toBe(true);
    expect(roles(regateScorecard(claimed, repoGate, null))).toEqual([
      ["decode-c1", "target", true],
      ["chat-rate16", "target", false],
    ]);
    const asGuard = regateScorecard(claimed, { ...repoGate, scenarios: { "chat-rate16": { role: "guard" } } }, null);
    expect(asGuard.scenarios?.[1]?.card.gate).toMatchObject({ role: "guard", passed: false, bar: 0.95 });
    expect(asGuard.scenarios?.[1]?.card.gate.margin).toBeUndefined();
  });
});

/*
 * #39: one source of truth for a scenario's bar. The app reads the round config on the default branch itself: a scenario
 * is held to the bar that file states (under the app's own gate.scenarios), not to the one the card claims, and each
 * scenario says which settings decided and what the card claimed when that was another.
 */
describe("regateScorecard: the bars of the round config on the default branch", () => {
  const repoGate = { minRoundScore: 1, maxUnscored: 0.1, minPrompts: 10 };
  const path = ".github/speedgate/round.yaml";
  const guarded = { path, names: ["decode-c1", "chat-rate16"], scenarios: { "chat-rate16": { role: "guard" as const } } };

  it("holds a guard the default branch's round config names as one, without repeating it in the app's settings", () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.97, role: "guard" },
    ]);
    const regated = regateScorecard(card, { ...repoGate, roundConfig: guarded }, null);
    expect(regated.gate.passed, regated.gate.reason).toBe(true);
    expect(regated.scenarios?.map((scenario) => [scenario.name, scenario.card.gate.role ?? "target", scenario.barFrom])).toEqual([
      ["decode-c1", "target", { settings: "app-settings", path: null }],
      ["chat-rate16", "guard", { settings: "round-config", path }],
    ]);
  });

  it("re-gates a scenario whose card claims a guard (its pull request edited the round config) with the default branch's target", () => {
    const forged = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.6, role: "guard", margin: 0.5 },
    ]);
    expect(forged.gate.passed).toBe(true);
    const targets = { path, names: ["decode-c1", "chat-rate16"], scenarios: { "chat-rate16": { minRoundScore: 1 } } };
    const regated = regateScorecard(forged, { ...repoGate, roundConfig: targets }, null);
    expect(regated.gate.passed).toBe(false);
    expect(regated.scenarios?.[1]).toMatchObject({
      card: { gate: { passed: false, minRoundScore: 1 } },
      barFrom: { settings: "round-config", path, claimed: { role: "guard", minRoundScore: 1, margin: 0.5 } },
    });
    expect(regated.scenarios?.[1]?.card.gate.role ?? "target").toBe("target");
    // A scenario whose claimed bar is the one that decided says nothing more.
    expect(regated.scenarios?.[0]?.barFrom).toEqual({ settings: "app-settings", path: null });
  });

  it("lets the app's gate.scenarios decide over the round config, and says so", () => {
    const card = makeScenarioRound([
      { name: "decode-c1", speedup: 1.2 },
      { name: "chat-rate16", speedup: 0.97, role: "guard" },
    ]);
    const regated = regateScorecard(card, { ...repoGate, scenarios: { "chat-rate16": { role: "target" } }, roundConfig: guarded }, null);
    expect(regated.gate.passed).toBe(false);
    expect(regated.scenarios?.[1]?.barFrom).toEqual({
      settings: "app-settings",
      path: null,
      claimed: { role: "guard", minRoundScore: 1, margin: 0.05 },
    });
  });

  it("fails a card that lacks a scenario the default branch's round config has (a pull request that dropped the one it slows)", () => {
    const dropped = makeScenarioRound([{ name: "decode-c1", speedup: 1.2 }]);
    const regated = regateScorecard(dropped, { ...repoGate, roundConfig: guarded }, null);
    expect(regated.gate.passed).toBe(false);
    expect(regated.gate.reasons[0]).toBe(
      `the card has no scenario chat-rate16, which the round config on the default branch has (${path}): add it to the round ` +
        "config's scenarios under the same name; if the round config has it, this card is not the one the round made",
    );
  });
});
