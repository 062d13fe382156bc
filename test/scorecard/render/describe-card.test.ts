import { describe, expect, it } from "vitest";
import {
  describeFailureCause,
  describeFailureEvent,
  describeInterval,
  describeNoise,
  describeRuns,
  describeVerdict,
} from "../../../src/scorecard/render/describe-card.js";
import { describeNextStep, describePromptCounts, describeScore } from "../../../src/scorecard/render/describe-summary.js";
import type { Scorecard } from "../../../src/scorecard/scorecard-schema.js";
import { makeCard } from "../../../harness/make-card.js";

type Failure = NonNullable<Scorecard["failure"]>;

const daemonGone: Failure = {
  engine: "baseline",
  stage: "benchmark",
  kind: "infrastructure",
  label: "the Docker daemon went away (infrastructure, not the patch)",
  summary: "lost the connection to the Docker daemon while the baseline engine ran: aborted (ECONNRESET)",
  hint: "check systemctl status docker",
  exitCode: null,
  signal: null,
  logTail: [],
};

describe("describeFailureEvent", () => {
  it("says what went away and when, instead of an engine that died", () => {
    expect(describeFailureEvent(daemonGone)).toBe("the Docker daemon went away during the baseline engine's benchmark");
    expect(describeFailureEvent({ ...daemonGone, engine: "candidate", stage: "startup" })).toBe(
      "the Docker daemon went away while the candidate engine was starting",
    );
    expect(describeFailureEvent({ ...daemonGone, stage: "build" })).toBe(
      "the Docker daemon went away while the baseline engine was being prepared",
    );
  });

  it("still blames the engine for its own death", () => {
    expect(describeFailureEvent({ ...daemonGone, kind: "exited", label: "exited with code 1" })).toBe(
      "baseline engine died during the benchmark",
    );
  });

  it("says a crashed engine aborted or crashed, and during which prompt of the benchmark", () => {
    const assertion: Failure = {
      ...daemonGone,
      engine: "candidate",
      kind: "assertion_failed",
      label: "assertion failed (GGML_ASSERT)",
      prompt: { number: 3, id: "p3" },
    };
    expect(describeFailureEvent(assertion)).toBe("candidate engine aborted during prompt 3 of the benchmark");
    expect(describeFailureEvent({ ...assertion, kind: "fatal_signal", prompt: null })).toBe(
      "candidate engine crashed during the benchmark",
    );
    expect(describeFailureEvent({ ...assertion, stage: "startup", prompt: null })).toBe("candidate engine aborted before becoming healthy");
    expect(describeFailureEvent({ ...assertion, kind: "exited" })).toBe("candidate engine died during prompt 3 of the benchmark");
  });
});

describe("describeFailureCause", () => {
  const patch: Failure = {
    ...daemonGone,
    engine: "candidate",
    stage: "patch",
    kind: "patch_conflict",
    label: "the patch does not apply",
    summary: "profile.json: hunk #1 (at line 4) does not apply",
  };

  it("gives an assertion's own line, its place after it, instead of the kind's label", () => {
    const assertion: Failure = {
      ...daemonGone,
      engine: "candidate",
      stage: "startup",
      kind: "assertion_failed",
      label: "assertion failed (GGML_ASSERT)",
      summary: "/src/llama.cpp/src/llama-context.cpp:1722: GGML_ASSERT(n_tokens_all <= cparams.n_batch) failed",
    };
    expect(describeFailureCause(assertion)).toBe(
      "candidate engine aborted before becoming healthy (GGML_ASSERT(n_tokens_all <= cparams.n_batch) failed at llama-context.cpp:1722)",
    );
    const python = { ...assertion, summary: "AssertionError: req b2 has nothing to extend" };
    expect(describeFailureCause(python)).toBe(
      "candidate engine aborted before becoming healthy (AssertionError: req b2 has nothing to extend)",
    );
  });

  it("names the file and hunk of a patch that does not apply instead of saying twice that it does not apply", () => {
    expect(describeFailureCause(patch)).toBe("candidate patch does not apply (profile.json: hunk #1 (at line 4) does not apply)");
    expect(describeFailureCause({ ...patch, label: "the patch does not apply to the baseline's source", summary: "" })).toBe(
      "candidate patch does not apply (the patch does not apply to the baseline's source)",
    );
    expect(
      describeFailureCause({
        ...patch,
        kind: "patch_tool_missing",
        label: "no tool to apply the patch",
        summary: "neither git nor patch is installed",
      }),
    ).toBe("candidate engine: the image has neither git nor patch to apply the patch");
  });

  it("keeps the kind of failure in brackets when it adds something", () => {
    expect(describeFailureCause({ ...patch, stage: "startup", kind: "cuda_oom", label: "CUDA out of memory while loading weights" })).toBe(
      "candidate engine died before becoming healthy (CUDA out of memory while loading weights)",
    );
  });

  it("is what a card with no score says in its headline", () => {
    const card = makeCard([{ speedup: 1.2 }], { failure: patch });
    expect(describeVerdict(card).headline).toBe(
      "❌ No prompt scores: candidate patch does not apply (profile.json: hunk #1 (at line 4) does not apply)",
    );
  });
});

describe("the first screen's words", () => {
  const twelve = Array.from({ length: 12 }, () => ({ speedup: 1.3 }));

  it("say what the score is and how far to trust it, without the JSON field's name", () => {
    const score = describeScore(makeCard(twelve));
    expect(score?.score).toBe("1.30×");
    expect(score?.rest).toMatch(
      /^median end-to-end speedup at equal length, 95% interval 1\.\d\d×–1\.\d\d× \(1 run of each engine, noise not calibrated\)$/,
    );
    expect(score?.rest).not.toContain("median_e2e_speedup");
  });

  it("count only what is not zero, each with what it means", () => {
    expect(describePromptCounts(makeCard(twelve))).toBe("12 of 12 scored");
    const mixed = makeCard([...twelve.slice(0, 9), { candidateTokens: 10 }, { candidateError: "HTTP 500" }, { baselineError: "HTTP 500" }]);
    expect(describePromptCounts(mixed)).toBe(
      "9 of 11 scored; 1 below tolerance (answered too little); 1 zeroed (the candidate failed on them); 1 more excluded (the " +
        "baseline failed on them or answered nothing: they count nowhere)",
    );
    expect(describePromptCounts(mixed)).not.toMatch(/scored 0\.0 without measuring|\b0 (below|diverged|implausible|zeroed)/);
  });

  it("say what would change a verdict that did not pass, and nothing when it passed", () => {
    expect(describeNextStep(makeCard(twelve))).toBeNull();
    const short = makeCard([...twelve.slice(0, 9), { candidateTokens: 10 }, { candidateTokens: 10 }, { candidateTokens: 10 }]);
    expect(describeNextStep(short)).toBe("Find why the candidate stops early on 3 prompts: speed from answering less does not count.");
    const few = makeCard(twelve.slice(0, 6).map(() => ({ speedup: 0.9 })));
    expect(describeNextStep(few)).toBe(
      "Score more prompts: gate.minPrompts is 10. By this measure the candidate is not faster than the bar.",
    );
  });
});

describe("describeVerdict, describeRuns and describeNoise", () => {
  const twelve = Array.from({ length: 12 }, () => ({ speedup: 1.3 }));

  it("has no verdict when the baseline answered none of the prompts, instead of saying none was attempted", () => {
    const card = makeCard(twelve.map(() => ({ baselineError: "HTTP 500" })));
    expect(describeVerdict(card).headline).toBe(
      "⚠️ No verdict: the baseline answered none of the prompts, so there is nothing to compare with",
    );
  });

  it("names the number that decided a verdict the rule alone gave: the interval's low end, or the score, against the gate's bar", () => {
    const passing = makeCard(twelve);
    expect(describeVerdict(passing).headline).toMatch(
      /^✅ Round score 1\.\d\d×; the interval's low end 1\.\d\d× clears the gate's 1\.00×$/,
    );
    const wide = {
      ...passing,
      gate: { ...passing.gate, passed: false, reasons: ["interval low 0.91× < 1.00×"], rule: "interval low 0.91× < 1.00×" },
      scoreInterval: passing.scoreInterval && { ...passing.scoreInterval, low: 0.91 },
    };
    expect(describeVerdict(wide).headline).toBe(
      `❌ Round score ${passing.roundScore?.toFixed(2)}×, but the interval's low end 0.91× is below the gate's 1.00×`,
    );
    const slow = makeCard(twelve.map(() => ({ speedup: 0.8 })));
    expect(describeVerdict(slow).headline).toBe("❌ Round score 0.80× is below the gate's 1.00×");
  });

  it("puts what other than the score keeps the gate closed into the headline", () => {
    const card = makeCard([...twelve.slice(0, 10), { candidateTokens: 10 }, { candidateTokens: 10 }]);
    expect(card.roundScore).toBeGreaterThan(1);
    expect(describeVerdict(card).headline).toBe(
      `❌ Round score ${card.roundScore?.toFixed(2)}×, but 2 of 12 prompts (16.7%) were not scored (2 below tolerance), more than ` +
        `gate.maxUnscored 10%; 2 of 12 prompts (16.7%) were cut short or parted where the baseline's own answers are not (below ` +
        `tolerance: prompt-011, prompt-012), more than gate.maxUnexplained 0%`,
    );
  });

  it("says one run does not measure run-to-run variation, and that the verdict is not calibrated", () => {
    const card = makeCard(twelve);
    expect(describeRuns(card)).toBe("1 of each engine (bench.runs: 1): run-to-run variation is not measured");
    expect(describeInterval(card)).toContain("prompt-to-prompt variation only");
    expect(describeNoise(card)).toMatch(/^not calibrated: /);
    expect(describeNoise(card)).toContain(
      "with one run that interval cannot see how much engine starts differ, so an unchanged engine can pass",
    );
  });

  it("says what an uncalibrated verdict over several runs gives up", () => {
    const card = makeCard(twelve);
    const fourRuns = { ...card, settings: { ...card.settings, runs: 4 } };
    expect(describeNoise(fourRuns)).toContain(
      "it takes 4 runs of each engine and a larger speedup to clear the bar than a calibrated gate needs",
    );
  });

  it("lists each run's score and their spread, and which engine went first", () => {
    const card = makeCard(twelve);
    const threeRuns = { ...card, settings: { ...card.settings, runs: 3 }, runs: { completed: 3, scores: [1.07, 1.11, 1.09] } };
    expect(describeRuns(threeRuns)).toBe(
      "3, counterbalanced (the baseline first in odd runs, the candidate first in even ones), each engine restarted every run; run " +
        "scores 1.07×, 1.11×, 1.09× (spread 1.07×–1.11×)",
    );
    // A card from before bench.order ran the baseline first in every run.
    const { order: _order, ...before } = threeRuns.settings;
    expect(describeRuns({ ...threeRuns, settings: before })).toContain(
      "3, interleaved, the baseline first in every run, each engine restarted",
    );
    expect(describeInterval(threeRuns)).toContain("a bootstrap over the 3 runs and the prompts");
  });

  it("says when no interval is shown for fewer than five prompts", () => {
    expect(describeInterval(makeCard(twelve.slice(0, 4)))).toBe("none: fewer than 5 prompts compared (4)");
  });
});
