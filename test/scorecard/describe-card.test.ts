import { describe, expect, it } from "vitest";
import { describeFailureEvent, describeInterval, describeNoise, describeRuns, describeVerdict } from "../../src/scorecard/describe-card.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import { makeCard } from "../support/make-card.js";

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
    expect(describeFailureEvent({ ...daemonGone, engine: "candidate", stage: "startup" })).toBe("the Docker daemon went away while the candidate engine was starting");
    expect(describeFailureEvent({ ...daemonGone, stage: "build" })).toBe("the Docker daemon went away while the baseline engine was being prepared");
  });

  it("still blames the engine for its own death", () => {
    expect(describeFailureEvent({ ...daemonGone, kind: "exited", label: "exited with code 1" })).toBe("baseline engine died during the benchmark");
  });
});

describe("describeVerdict, describeRuns and describeNoise", () => {
  const twelve = Array.from({ length: 12 }, () => ({ speedup: 1.3 }));

  it("has no verdict when the baseline answered none of the prompts, instead of saying none was attempted", () => {
    const card = makeCard(twelve.map(() => ({ baselineError: "HTTP 500" })));
    expect(describeVerdict(card).headline).toBe("⚠️ No verdict: the baseline answered none of the prompts, so there is nothing to compare with");
  });

  it("puts what other than the score keeps the gate closed into the headline", () => {
    const card = makeCard([...twelve.slice(0, 10), { candidateTokens: 10 }, { candidateTokens: 10 }]);
    expect(card.roundScore).toBeGreaterThan(1);
    expect(describeVerdict(card).headline).toBe(
      `❌ Round score ${card.roundScore?.toFixed(2)}× (gate interval low ≥ 1.00×): 2 of 12 prompts (16.7%) were not scored (2 below tolerance), more than gate.maxUnscored 10%`,
    );
  });

  it("says one run does not measure run-to-run variation, and that the verdict is not calibrated", () => {
    const card = makeCard(twelve);
    expect(describeRuns(card)).toBe("1 of each engine (bench.runs: 1): run-to-run variation is not measured");
    expect(describeInterval(card)).toContain("prompt-to-prompt variation only");
    expect(describeNoise(card)).toMatch(/^not calibrated: /);
  });

  it("lists each run's score and their spread", () => {
    const card = makeCard(twelve);
    const threeRuns = { ...card, settings: { ...card.settings, runs: 3 }, runs: { completed: 3, scores: [1.07, 1.11, 1.09] } };
    expect(describeRuns(threeRuns)).toBe("3, interleaved (baseline, candidate, baseline, …), each engine restarted every run; run scores 1.07×, 1.11×, 1.09× (spread 1.07×–1.11×)");
    expect(describeInterval(threeRuns)).toContain("a bootstrap over the 3 runs and the prompts");
  });

  it("says when no interval is shown for fewer than five prompts", () => {
    expect(describeInterval(makeCard(twelve.slice(0, 4)))).toBe("none: fewer than 5 prompts compared (4)");
  });
});
