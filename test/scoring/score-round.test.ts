import { describe, expect, it } from "vitest";
import type { EngineFailure } from "../../src/vocabulary/engine-failure.js";
import type { RequestRecord } from "../../src/scoring/request-record.js";
import { type RoundRun, scoreRound } from "../../src/scoring/score-round.js";
import { failedRequest, steadyStream } from "../../harness/make-records.js";
import { textStream } from "../support/make-text-records.js";

const gate = { minRoundScore: 1.0, use: "round-score" as const, maxUnscored: 0.1, minPrompts: 1 };

function records(entries: Array<[string, RequestRecord]>): Map<string, RequestRecord> {
  return new Map(entries);
}

/** Candidate timelines with a chosen speedup over a fixed baseline timeline. */
function withSpeedups(speedups: number[]) {
  const ids = speedups.map((_, index) => `p${index + 1}`);
  const baseline = records(ids.map((id) => [id, steadyStream({ tokens: 100, ttftMs: 100, itlMs: 10 })]));
  const candidate = records(
    ids.map((id, index) => {
      const s = speedups[index] as number;
      return [id, steadyStream({ tokens: 100, ttftMs: 100 / s, itlMs: 10 / s })];
    }),
  );
  return { ids, baseline, candidate };
}

const startupOom: EngineFailure = {
  engine: "candidate",
  stage: "startup",
  kind: "cuda_oom",
  label: "CUDA out of memory during CUDA graph capture",
  summary: "torch.OutOfMemoryError: CUDA out of memory.",
  hint: "lower --mem-fraction-static",
  exitCode: 1,
  signal: null,
  logTail: [],
};

describe("scoreRound", () => {
  it("takes the median of an odd count of scores", () => {
    const { ids, baseline, candidate } = withSpeedups([1.5, 0.8, 1.2]);
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBeCloseTo(1.2, 5);
    expect(result.promptsScored).toBe(3);
    expect(result.gate.passed).toBe(true);
  });

  it("takes the mean of the middle two for an even count, zeros included", () => {
    const { ids, baseline, candidate } = withSpeedups([2, 1.2, 1.4, 1]);
    candidate.set("p1", steadyStream({ tokens: 10, ttftMs: 1, itlMs: 1 })); // below tolerance: 0
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } }],
      tolerance: 0.9,
      gate,
    });
    // scores: 0, 1.2, 1.4, 1 -> sorted 0, 1, 1.2, 1.4 -> (1 + 1.2) / 2
    expect(result.roundScore).toBeCloseTo(1.1, 5);
    expect(result.belowTolerance).toBe(1);
    expect(result.prompts[0]?.reason).toBe("answered 10 of 100 tokens (tolerance 90%)");
  });

  it("leaves excluded prompts out of the median and the counts that score", () => {
    const { ids, baseline, candidate } = withSpeedups([3, 1.1, 1.2]);
    baseline.set("p1", failedRequest("HTTP 500: boom"));
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.excluded).toBe(1);
    expect(result.roundScore).toBeCloseTo(1.15, 5);
    expect(result.promptsTotal).toBe(3);
  });

  it("gives every prompt zero when all are below tolerance, and fails the gate on the score and the unscored share", () => {
    const { ids, baseline } = withSpeedups([1, 1, 1]);
    const candidate = records(ids.map((id) => [id, steadyStream({ tokens: 5, ttftMs: 1, itlMs: 1 })]));
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBe(0);
    expect(result.belowTolerance).toBe(3);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons).toEqual([
      "3 of 3 prompts (100%) were not scored (3 below tolerance), more than gate.maxUnscored 10%",
      // One run: the baseline answered each prompt once, so nothing it did explains the cuts.
      "3 of 3 prompts (100%) were cut short or parted where the baseline's own answers are not (below tolerance: p1, p2, p3), more " +
        "than gate.maxUnexplained 0%",
      "round score 0.00× < 1.00×",
    ]);
  });

  it("has no round score for no prompts", () => {
    const result = scoreRound({
      promptIds: [],
      runs: [{ baseline: { records: new Map(), failure: null }, candidate: { records: new Map(), failure: null } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBeNull();
    expect(result.interval).toBeNull();
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reason).toBe("no round score: the round has no prompts");
  });

  it("has no round score when the candidate died before serving, and zeroes each prompt with the reason", () => {
    const { ids, baseline } = withSpeedups([1, 1]);
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: new Map(), failure: startupOom } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBeNull();
    expect(result.zeroedTotal).toBe(2);
    expect(result.prompts[0]?.reason).toBe("candidate engine failed at startup (CUDA out of memory during CUDA graph capture)");
    expect(result.gate.reason).toContain("CUDA out of memory during CUDA graph capture");
  });

  it("counts zeroes when the candidate died halfway, and never passes: measured prompts keep their scores", () => {
    const { ids, baseline, candidate } = withSpeedups([1.5, 1.5, 1.5]);
    candidate.delete("p2");
    candidate.delete("p3");
    const died: EngineFailure = { ...startupOom, stage: "benchmark", kind: "exited", label: "exited with code 1" };
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: died } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBe(0);
    expect(result.zeroedTotal).toBe(2);
    expect(result.prompts[2]?.reason).toBe("candidate engine died during the benchmark (exited with code 1)");
    expect(result.gate.reasons[0]).toBe("the candidate engine failed: candidate engine failed at benchmark (exited with code 1)");
  });

  it("never passes a candidate that crashed after answering most prompts fast, whatever the median", () => {
    const { ids, baseline, candidate } = withSpeedups(Array.from({ length: 20 }, () => 1.5));
    for (const id of ids.slice(17)) candidate.delete(id);
    const died: EngineFailure = { ...startupOom, stage: "benchmark", kind: "exited", label: "exited with code 1" };
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: died } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBeCloseTo(1.5, 5);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons).toEqual([
      "the candidate engine failed: candidate engine failed at benchmark (exited with code 1)",
      "3 of 20 prompts (15%) were not scored (3 zeroed), more than gate.maxUnscored 10%",
    ]);
  });

  it("never passes the gate when the baseline failed, and says the baseline, not the patch, failed", () => {
    const { ids, baseline, candidate } = withSpeedups([2, 2, 2]);
    const baselineFailure: EngineFailure = {
      ...startupOom,
      engine: "baseline",
      stage: "benchmark",
      kind: "exited",
      label: "exited with code 1",
    };
    baseline.delete("p3");
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: baselineFailure }, candidate: { records: candidate, failure: null } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBeCloseTo(2, 5);
    expect(result.excluded).toBe(1);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reason).toMatch(/^the baseline engine failed, not the patch/);
  });

  it("never passes the gate when the candidate's runtime went away mid-benchmark, however fast the measured prompts were", () => {
    const { ids, baseline, candidate } = withSpeedups([2, 2, 2]);
    candidate.delete("p3");
    const lost: EngineFailure = {
      ...startupOom,
      stage: "benchmark",
      kind: "infrastructure",
      label: "the Docker daemon went away (infrastructure, not the patch)",
    };
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: lost } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBeCloseTo(2, 5);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reason).toMatch(/^the infrastructure failed, not the patch: .*Docker daemon went away/);
    expect(result.prompts[2]?.reason).toBe(
      "candidate engine was not measured at benchmark (the Docker daemon went away (infrastructure, not the patch))",
    );
  });

  it("gives the same interval for the same data", () => {
    const { ids, baseline, candidate } = withSpeedups([0.9, 1.1, 1.3, 1.2, 1.05, 0.95, 1.4, 1.15]);
    const input = {
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } }],
      tolerance: 0.9,
      gate,
    };
    const first = scoreRound(input);
    const second = scoreRound(input);
    expect(first.interval).not.toBeNull();
    expect(second.interval).toEqual(first.interval);
    expect(first.interval?.low).toBeLessThanOrEqual(first.roundScore as number);
    expect(first.interval?.high).toBeGreaterThanOrEqual(first.roundScore as number);
  });
});

describe("scoreRound: edges", () => {
  it("excludes a prompt whose baseline answered 0 tokens, with that reason, instead of scoring the candidate against nothing", () => {
    const { ids, baseline, candidate } = withSpeedups([1.2, 1.2]);
    baseline.set("p1", { ok: true, chunks: [], outputTokens: 0, finishReason: "stop", endMs: 40, tokensEstimated: false });
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.prompts[0]).toMatchObject({
      status: "excluded",
      score: null,
      reason: "the baseline answered 0 tokens: nothing to compare at equal length",
    });
    expect(result.excluded).toBe(1);
    expect(result.roundScore).toBeCloseTo(1.2, 5);
  });

  it("says the baseline answered nothing when it failed every prompt, not that no prompt was attempted", () => {
    const { ids, candidate } = withSpeedups([1, 1, 1]);
    const baseline = records(ids.map((id) => [id, failedRequest("HTTP 500: boom")]));
    const result = scoreRound({
      promptIds: ids,
      runs: [{ baseline: { records: baseline, failure: null }, candidate: { records: candidate, failure: null } }],
      tolerance: 0.9,
      gate,
    });
    expect(result.roundScore).toBeNull();
    expect(result.gate.reason).toBe("no round score: the baseline answered none of the prompts, so there is nothing to compare with");
  });

  it("shows no interval below five prompts", () => {
    const four = withSpeedups([1.1, 1.2, 1.3, 1.4]);
    const five = withSpeedups([1.1, 1.2, 1.3, 1.4, 1.5]);
    const score = (round: typeof four) =>
      scoreRound({
        promptIds: round.ids,
        runs: [{ baseline: { records: round.baseline, failure: null }, candidate: { records: round.candidate, failure: null } }],
        tolerance: 0.9,
        gate,
      });
    expect(score(four).interval).toBeNull();
    expect(score(five).interval).not.toBeNull();
  });

  it("has no score and zeroes every prompt with the failure when the candidate could not be prepared (no run at all)", () => {
    const conflict: EngineFailure = { ...startupOom, stage: "patch", kind: "patch_conflict", label: "patch does not apply" };
    const result = scoreRound({ promptIds: ["p1", "p2"], runs: [], failure: conflict, tolerance: 0.9, gate });
    expect(result.roundScore).toBeNull();
    expect(result.runs).toEqual({ completed: 0, scores: [] });
    expect(result.prompts.map((prompt) => [prompt.status, prompt.reason])).toEqual([
      ["zeroed", "candidate engine failed at patch (patch does not apply)"],
      ["zeroed", "candidate engine failed at patch (patch does not apply)"],
    ]);
    expect(result.gate.reason).toBe("no round score: candidate engine failed at patch (patch does not apply)");
  });
});

describe("scoreRound: several runs", () => {
  /** Run r's candidate is `speedups[r]` times faster on every prompt. */
  function runsWith(speedups: number[], prompts = 6) {
    const ids = Array.from({ length: prompts }, (_, index) => `p${index + 1}`);
    const baseline = records(ids.map((id) => [id, steadyStream({ tokens: 100, ttftMs: 100, itlMs: 10 })]));
    const runs: RoundRun[] = speedups.map((s) => ({
      baseline: { records: baseline, failure: null },
      candidate: { records: records(ids.map((id) => [id, steadyStream({ tokens: 100, ttftMs: 100 / s, itlMs: 10 / s })])), failure: null },
    }));
    return { ids, runs };
  }

  it("combines a prompt's runs by their geometric mean and reports each run's score", () => {
    const { ids, runs } = runsWith([1.1, 1.21]);
    const result = scoreRound({ promptIds: ids, runs, tolerance: 0.9, gate });
    expect(result.roundScore).toBeCloseTo(Math.sqrt(1.1 * 1.21), 5);
    expect(result.runs.completed).toBe(2);
    expect(result.runs.scores[0]).toBeCloseTo(1.1, 5);
    expect(result.runs.scores[1]).toBeCloseTo(1.21, 5);
    expect(result.prompts[0]?.runs).toHaveLength(2);
    expect(result.prompts[0]?.runs[1]).toMatchObject({ status: "scored", comparedTokens: 100, baselineTokens: 100, candidateTokens: 100 });
  });

  it("widens the interval when the runs disagree, which one run cannot show", () => {
    const agreeing = runsWith([1.1, 1.1, 1.1], 12);
    const disagreeing = runsWith([1.0, 1.1, 1.2], 12);
    // Prompt-to-prompt spread, the same in both: each prompt's speed differs a little.
    for (const round of [agreeing, disagreeing]) {
      round.runs.forEach((run, r) => {
        const candidate = new Map(run.candidate.records);
        round.ids.forEach((id, index) => {
          const s = [1.0, 1.1, 1.2][r]! * (0.97 + 0.005 * index) * (round === agreeing ? 1.1 / [1.0, 1.1, 1.2][r]! : 1);
          candidate.set(id, steadyStream({ tokens: 100, ttftMs: 100 / s, itlMs: 10 / s }));
        });
        round.runs[r] = { ...run, candidate: { records: candidate, failure: null } };
      });
    }
    const width = (round: typeof agreeing) => {
      const interval = scoreRound({ promptIds: round.ids, runs: round.runs, tolerance: 0.9, gate }).interval;
      return (interval?.high ?? 0) - (interval?.low ?? 0);
    };
    expect(width(disagreeing)).toBeGreaterThan(3 * width(agreeing));
  });

  it("leaves a prompt unscored when the candidate truncated it in any one run", () => {
    const { ids, runs } = runsWith([1.2, 1.2, 1.2]);
    const second = new Map(runs[1]!.candidate.records);
    second.set("p2", steadyStream({ tokens: 40, ttftMs: 10, itlMs: 1 }));
    runs[1] = { ...runs[1]!, candidate: { records: second, failure: null } };
    const result = scoreRound({ promptIds: ids, runs, tolerance: 0.9, gate });
    expect(result.prompts[1]).toMatchObject({
      status: "below_tolerance",
      score: 0,
      reason: "run 2: answered 40 of 100 tokens (tolerance 90%)",
    });
    expect(result.belowTolerance).toBe(1);
  });

  it("keeps the prompt when the baseline failed on it in one run only", () => {
    const { ids, runs } = runsWith([1.1, 1.3]);
    const first = new Map(runs[0]!.baseline.records);
    first.set("p1", failedRequest("HTTP 500"));
    runs[0] = { ...runs[0]!, baseline: { records: first, failure: null } };
    const result = scoreRound({ promptIds: ids, runs, tolerance: 0.9, gate });
    expect(result.prompts[0]).toMatchObject({ status: "scored" });
    expect(result.prompts[0]?.score).toBeCloseTo(1.3, 5);
    expect(result.excluded).toBe(0);
  });

  it("says in which run the candidate failed, and never passes", () => {
    const { ids, runs } = runsWith([1.5, 1.5]);
    const died: EngineFailure = { ...startupOom, stage: "startup", run: 2 };
    runs[1] = { ...runs[1]!, candidate: { records: new Map(), failure: died } };
    const result = scoreRound({ promptIds: ids, runs, tolerance: 0.9, gate, plannedRuns: 3 });
    // Run 2 left no measurement (the engine never served): the score is run 1's, the verdict is the failure's.
    expect(result.roundScore).toBeCloseTo(1.5, 5);
    expect(result.runs.scores).toEqual([expect.closeTo(1.5, 5), null]);
    expect(result.gate.passed).toBe(false);
    expect(result.gate.reasons[0]).toBe(
      "the candidate engine failed: candidate engine failed at startup in run 2 of 3 (CUDA out of memory during CUDA graph capture)",
    );
  });
});

describe("scoreRound: the median agreement the gate holds", () => {
  const words = (count: number, partAfter: number | null, tail: string): string[] =>
    Array.from({ length: count }, (_, index) => (partAfter !== null && index >= partAfter ? ` ${tail}${index}` : ` w${index}`));
  /** Two runs of three prompts; p1 and p2 part after 32 of 40 tokens in the candidate's answers, p3 agrees. */
  function round(baselinePartsInRun2: number | null) {
    const ids = ["p1", "p2", "p3"];
    const runs: RoundRun[] = [0, 1].map((run) => ({
      baseline: {
        records: records(
          ids.map((id) => [id, textStream(words(40, run === 1 && id !== "p3" ? baselinePartsInRun2 : null, "b"), { itlMs: 10 })]),
        ),
        failure: null,
      },
      candidate: {
        records: records(ids.map((id) => [id, textStream(words(40, id === "p3" ? null : 32, "c"), { itlMs: 5 })])),
        failure: null,
      },
    }));
    return scoreRound({ promptIds: ids, runs, tolerance: 0.9, gate: { ...gate, minAgreement: 1 } });
  }

  it(
    "holds an answer that parts from every answer the baseline gave to its measured share, even where the baseline's own answers part " +
      "earlier",
    () => {
      // Before, a parting no earlier than the baseline's own counted as agreement, and filler after such a
      // point passed (1.17x on a batching engine). Now the candidate's answer is held to each baseline
      // answer: it follows neither past token 32, so it agrees on 80% whatever the baseline does.
      for (const baselinePartsAt of [30, 36, null]) {
        const result = round(baselinePartsAt);
        expect(result.medianAgreement).toBeCloseTo(0.8, 10);
        expect(result.prompts[0]?.runs.map((run) => run.match)).toEqual(["none", "none"]);
        expect(result.gate.passed).toBe(false);
        expect(result.gate.reasons[0]).toBe(
          "median agreement 80% < gate.minAgreement 100%: most answers are not the baseline's over the compared length",
        );
      }
    },
  );

  it("scores an answer the baseline gave in another run as agreeing, timed against that run", () => {
    // The candidate gives the baseline's run-2 answer in both runs: the engine's own variation.
    const ids = ["p1", "p2", "p3"];
    const runs: RoundRun[] = [0, 1].map((run) => ({
      baseline: {
        records: records(ids.map((id) => [id, textStream(words(40, run === 1 ? 30 : null, "b"), { itlMs: 10 })])),
        failure: null,
      },
      candidate: { records: records(ids.map((id) => [id, textStream(words(40, 30, "b"), { itlMs: 5 })])), failure: null },
    }));
    const result = scoreRound({ promptIds: ids, runs, tolerance: 0.9, gate: { ...gate, minAgreement: 1 } });
    expect(result.medianAgreement).toBe(1);
    expect(result.prompts[0]?.runs.map((run) => [run.match, run.baselineRun, run.status, run.comparedTokens])).toEqual([
      ["other", 2, "scored", 40],
      ["same", 2, "scored", 40],
    ]);
    expect(result.prompts[0]?.runs[0]?.reason).toBe("the baseline's answer in run 2: the engine's own variation");
    expect(result.prompts[0]?.score).toBeCloseTo(2, 1);
    expect(result.prompts[0]?.baselineAnswers).toBe(2);
    expect(result.unexplainedAnswers).toEqual({ count: 0, compared: 6, pValue: 1, baselineVaries: true });
  });
});
