import { describe, expect, it } from "vitest";
import type { RunOutcome } from "../../src/scoring/aggregate-prompt-runs.js";
import type { GateSettings } from "../../src/scoring/evaluate-gate.js";
import type { AnswerPrefixes } from "../../src/scoring/pooled-answers.js";
import { type PromptOutcome, type SummarizeOptions, summarizeRound } from "../../src/scoring/summarize-round.js";

/** A gate that fails only on what a test looks at: one prompt is enough, and the bar is low. */
const GATE: GateSettings = { minRoundScore: 0.5, use: "round-score", maxUnscored: 0.5, minPrompts: 1 };
const OPTIONS: SummarizeOptions = { gate: GATE, baselineFailure: null, failure: null };

/** A run both engines answered in full (100 tokens each), at `score`. */
function scored(score: number, extra: Partial<RunOutcome> = {}): RunOutcome {
  return {
    status: "scored",
    candidateAttempted: true,
    score,
    reason: null,
    comparedTokens: 100,
    agreedTokens: 100,
    baselineTokens: 100,
    candidateTokens: 100,
    ...extra,
  };
}

/** A run whose answers part after `agreed` of 100 tokens: close enough to time (scored), or not (diverged). */
function parted(agreed: number, status: "scored" | "diverged" = "scored"): RunOutcome {
  return scored(status === "scored" ? 1.2 : 0, { status, agreedTokens: agreed, reason: status === "diverged" ? "answers part" : null });
}

function belowTolerance(): RunOutcome {
  return scored(0, { status: "below_tolerance", candidateTokens: 50, agreedTokens: 50, reason: "answered 50 of 100 tokens" });
}

const NOT_SENT: RunOutcome = { status: "zeroed", candidateAttempted: false, score: 0, reason: "candidate engine failed at startup" };

/** Two runs pooled: both baseline answers equal; the candidate's first equal to them, its second parting from both. */
const SECOND_PARTS: AnswerPrefixes = [[1, 2], [0, 2], [0, 1], []];
/** The same, but the baseline's two answers differ (neither is the start of the other): its answers vary. */
const BASELINE_VARIES: AnswerPrefixes = [[2], [], [0], []];
/** Every answer of both engines equal. */
const ALL_EQUAL: AnswerPrefixes = [
  [1, 2, 3],
  [0, 2, 3],
  [0, 1, 3],
  [0, 1, 2],
];

const steady = (id: string, runs = 2): PromptOutcome => ({ id, runs: Array.from({ length: runs }, () => scored(2)) });

describe("summarizeRound", () => {
  it("counts a run the candidate was never sent anything in nowhere: no run score, and the round scores the runs it served", () => {
    const prompts = ["a", "b", "c", "d", "e"].map((id, index) => ({ id, runs: [scored(1 + index / 10), NOT_SENT] }));
    const summary = summarizeRound(prompts, OPTIONS);
    expect(summary.runs).toEqual({ completed: 2, scores: [1.2, null] });
    expect(summary.roundScore).toBe(1.2);
    expect(summary.promptsScored).toBe(5);
    expect(summary.zeroedTotal).toBe(0);
    // The bootstrap runs over the served run alone: five prompts give an interval within their range.
    expect(summary.interval?.low).toBeGreaterThanOrEqual(1);
    expect(summary.interval?.high).toBeLessThanOrEqual(1.4);
  });

  it("gives every prompt the failure that ended the round before any engine ran, and excludes them when the baseline's was it", () => {
    const prompts: PromptOutcome[] = [
      { id: "a", runs: [] },
      { id: "b", runs: [] },
    ];
    const patch = summarizeRound(prompts, { ...OPTIONS, failure: "the patch does not apply" });
    expect(patch.prompts.map((prompt) => [prompt.status, prompt.score, prompt.reason])).toEqual([
      ["zeroed", 0, "the patch does not apply"],
      ["zeroed", 0, "the patch does not apply"],
    ]);
    expect(patch.roundScore).toBeNull();
    expect(patch.gate.reasons).toEqual(["no round score: the patch does not apply"]);

    const baseline = summarizeRound(prompts, {
      ...OPTIONS,
      baselineFailure: "baseline engine failed at startup",
      failure: "baseline engine failed at startup",
    });
    expect(baseline.excluded).toBe(2);
    expect(baseline.gate.reasons).toEqual(["the baseline engine failed, not the patch: baseline engine failed at startup"]);
  });

  describe("the unexplained rule on answers held to every baseline answer (answerPrefixes)", () => {
    it("names the run whose answer no baseline answer starts as parted, and fails it where the baseline never varied", () => {
      const prompts: PromptOutcome[] = [
        { id: "p1", runs: [scored(2), scored(2)], answerPrefixes: ALL_EQUAL },
        { id: "p2", runs: [scored(2), parted(80)], answerPrefixes: SECOND_PARTS },
      ];
      const summary = summarizeRound(prompts, OPTIONS);
      expect(summary.unexplained).toBe(1);
      expect(summary.unexplainedAnswers).toEqual({ count: 1, compared: 4, pValue: 1, baselineVaries: false });
      expect(summary.gate.passed).toBe(false);
      expect(summary.gate.reasons).toContain(
        "1 of 4 answers (25%) are none the baseline gave (parted or stopped, timed to there: p2 run 2), while the baseline " +
          "answered every prompt the same way in every run, and above gate.maxUnexplained 0%",
      );
    });

    it("lets the shuffle test decide where the baseline's own answers vary", () => {
      const prompts: PromptOutcome[] = [
        { id: "p1", runs: [scored(2), scored(2)], answerPrefixes: ALL_EQUAL },
        { id: "p2", runs: [scored(2), parted(80)], answerPrefixes: BASELINE_VARIES },
      ];
      const summary = summarizeRound(prompts, { ...OPTIONS, gate: { ...GATE, minAgreement: 0 } });
      expect(summary.unexplainedAnswers).toMatchObject({ count: 1, compared: 4, baselineVaries: true });
      // One unexplained answer among prompts whose baseline varies is what shuffles give often.
      expect(summary.unexplainedAnswers?.pValue).toBeGreaterThan(0.01);
      expect(summary.gate.passed).toBe(true);
    });

    it("holds the agreement as measured, whatever the baseline's least agreeing pair", () => {
      const prompts: PromptOutcome[] = ["p1", "p2", "p3"].map((id) => ({
        id,
        runs: [parted(60), parted(60)],
        baselineSelf: { agreedTokens: 50, comparedTokens: 100 },
        answerPrefixes: BASELINE_VARIES,
      }));
      const summary = summarizeRound(prompts, { ...OPTIONS, gate: { ...GATE, maxUnexplained: 0.99 } });
      expect(summary.medianAgreement).toBe(0.6);
      expect(summary.gate.reasons).toContain(
        "median agreement 60% < gate.minAgreement 100%: most answers are not the baseline's over the compared length",
      );
    });
  });

  describe("the rule of cards from before answerPrefixes", () => {
    it("leaves a parting the baseline's own least agreeing pair shows unnamed, and names one it does not", () => {
      const ownPair = { agreedTokens: 4, comparedTokens: 100 };
      const withPair = summarizeRound(
        [steady("p1"), { id: "p2", runs: [scored(2), parted(8, "diverged")], baselineSelf: ownPair }],
        OPTIONS,
      );
      expect(withPair.diverged).toBe(1);
      expect(withPair.unexplained).toBe(0);
      expect(withPair.unexplainedAnswers).toBeNull();

      const without = summarizeRound([steady("p1"), { id: "p2", runs: [scored(2), parted(8, "diverged")] }], OPTIONS);
      expect(without.unexplained).toBe(1);
      expect(without.gate.reasons).toContain(
        "1 of 2 prompts (50%) were cut short or parted where the baseline's own answers are not (diverged: p2 run 2), " +
          "more than gate.maxUnexplained 0%",
      );
    });

    it("explains a cut when the baseline itself stopped that short in another run", () => {
      const cut = (baselineTokens: number): PromptOutcome => ({
        id: "p2",
        runs: [scored(2, { baselineTokens }), belowTolerance()],
      });
      expect(summarizeRound([steady("p1"), cut(40)], OPTIONS).unexplained).toBe(0);
      expect(summarizeRound([steady("p1"), cut(100)], OPTIONS).unexplained).toBe(1);
    });

    it("counts a prompt that parts no earlier than the baseline's own answers as agreeing in full", () => {
      const prompts = (self: { agreedTokens: number; comparedTokens: number } | undefined): PromptOutcome[] =>
        ["p1", "p2", "p3"].map((id) => ({ id, runs: [parted(60), parted(60)], ...(self ? { baselineSelf: self } : {}) }));
      const lifted = summarizeRound(prompts({ agreedTokens: 50, comparedTokens: 100 }), OPTIONS);
      expect(lifted.medianAgreement).toBe(0.6);
      expect(lifted.gate.reasons.filter((reason) => reason.startsWith("median agreement"))).toEqual([]);

      const earlierThanOwn = summarizeRound(prompts({ agreedTokens: 70, comparedTokens: 100 }), OPTIONS);
      expect(earlierThanOwn.gate.reasons).toContain(
        "median agreement 60% < gate.minAgreement 100%: most answers are not the baseline's over the compared length",
      );
    });
  });

  it("leaves a prompt the baseline never answered out of both rules, whatever its runs and pooled answers say", () => {
    const excluded: RunOutcome = { status: "excluded", candidateAttempted: true, score: null, reason: "baseline: HTTP 500" };
    const summary = summarizeRound(
      [steady("p1"), { id: "p2", runs: [excluded, { ...excluded, agreedTokens: 1, comparedTokens: 100 }], answerPrefixes: SECOND_PARTS }],
      OPTIONS,
    );
    expect(summary.excluded).toBe(1);
    expect(summary.unexplained).toBe(0);
    expect(summary.unexplainedAnswers).toBeNull();
    expect(summary.medianAgreement).toBe(1);
    expect(summary.gate.passed).toBe(true);
  });

  it("names at most five unexplained prompts, in the order of their ids, and counts the rest", () => {
    const ids = ["p7", "p3", "p10", "p1", "p5", "p2", "p4"];
    const summary = summarizeRound(
      ids.map((id) => ({ id, runs: [belowTolerance()] })),
      { ...OPTIONS, gate: { ...GATE, maxUnscored: 0.99 } },
    );
    expect(summary.unexplained).toBe(7);
    expect(summary.belowTolerance).toBe(7);
    expect(summary.gate.reasons).toContain(
      "7 of 7 prompts (100%) were cut short or parted where the baseline's own answers are not " +
        "(below tolerance: p1, p10, p2, p3, p4; 2 more), more than gate.maxUnexplained 0%",
    );
  });

  it("gives the unscored prompts' breakdown to the gate, in a fixed order of statuses", () => {
    const summary = summarizeRound(
      [
        steady("a", 1),
        { id: "b", runs: [scored(0, { status: "zeroed", reason: "no answer" })] },
        { id: "c", runs: [parted(2, "diverged")] },
        { id: "d", runs: [belowTolerance()] },
      ],
      { ...OPTIONS, gate: { ...GATE, maxUnscored: 0.1, maxUnexplained: 0.99 } },
    );
    expect([summary.unscored, summary.belowTolerance, summary.diverged, summary.zeroedTotal]).toEqual([3, 1, 1, 1]);
    expect(summary.gate.reasons[0]).toBe(
      "3 of 4 prompts (75%) were not scored (1 below tolerance, 1 diverged, 1 zeroed), more than gate.maxUnscored 10%",
    );
  });
});
