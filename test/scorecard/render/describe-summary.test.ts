import { describe, expect, it } from "vitest";
import {
  describeInconclusive,
  describeNextStep,
  describeRegressedPrompts,
  describeUnexplainedDecision,
} from "../../../src/scorecard/render/describe-summary.js";
import { renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { renderText } from "../../../src/scorecard/render/render-text.js";
import type { Scorecard } from "../../../src/scorecard/scorecard-schema.js";
import { makeCard } from "../../../harness/make-card.js";
import { concatPatterns } from "../../support/concat-patterns.js";

const twelve = Array.from({ length: 12 }, () => ({ speedup: 1.3 }));

/** A round only the width of its interval failed: the score clears the bar, the interval's low end does not. */
function inconclusive(): Scorecard {
  const card = makeCard(twelve);
  const rule = "interval low 0.91× < 1.00×";
  return {
    ...card,
    gate: { ...card.gate, passed: false, reason: rule, reasons: [rule], rule },
    scoreInterval: card.scoreInterval && { ...card.scoreInterval, low: 0.91 },
  };
}

describe("describeInconclusive", () => {
  it("gives the author a line that says there is nothing to fix, and the maintainers the settings that narrow the interval", () => {
    const lines = describeInconclusive(inconclusive());
    expect(lines?.author).toBe("No measurable speedup at this runner's noise: nothing to fix in the patch.");
    expect(lines?.maintainers).toContain(
      "more bench.runs (1 now), more prompts (12 compared), a calibration of this runner (speedgate calibrate, gate.calibration) or " +
        "a pace the baseline keeps up with (bench.requestIntervalMs)",
    );
    // The author is no longer told to change settings only maintainers own.
    expect(describeNextStep(inconclusive())).toBeNull();
    expect(renderMarkdown(inconclusive())).toContain(
      "| For the author | No measurable speedup at this runner's noise: nothing to fix in the patch. |\n| For maintainers | The " +
        "interval is too wide to decide:",
    );
    expect(renderText(inconclusive())).toContain("For the author   No measurable speedup");
  });

  it("tells the maintainers of a two-run round to run three or more first: two runs widen the interval most", () => {
    const card = inconclusive();
    const lines = describeInconclusive({ ...card, settings: { ...card.settings, runs: 2 } });
    expect(lines?.maintainers).toMatch(
      concatPatterns(
        /^The interval is too wide to decide: bench\.runs 3 or more \(2 now: with two runs the interval pushes each run's level out /,
        /9\.2×, with 3 2\.7×\), more prompts/,
      ),
    );
  });

  it("says nothing for a pass, a slower candidate, or a round that failed for another reason too", () => {
    expect(describeInconclusive(makeCard(twelve))).toBeNull();
    expect(describeInconclusive(makeCard(twelve.map(() => ({ speedup: 0.8 }))))).toBeNull();
    expect(describeInconclusive(makeCard([...twelve.slice(0, 10), { candidateTokens: 10 }, { candidateTokens: 10 }]))).toBeNull();
  });
});

describe("the first screen's minority regression and unexplained answers", () => {
  it("names the prompts that got slower, slowest first and by how much, beside the gate's reasons and what to do", () => {
    // A scheduler that serves 8 of 30 prompts last: they take 2.5 times as long, the rest are 30% faster.
    const card = makeCard(Array.from({ length: 30 }, (_, index) => ({ speedup: index % 4 === 1 ? 0.4 : 1.3 })));
    expect(card.roundScore).toBeGreaterThan(1.2);
    expect(card.regression?.regressedTotal).toBe(8);
    expect(card.gate.passed).toBe(false);
    expect(describeRegressedPrompts(card)).toBe(
      "8 of 30 prompts scored under 0.80×: prompt-002 0.40×, prompt-006 0.40×, prompt-010 0.40×, prompt-014 0.40×, prompt-018 0.40×, " +
        "prompt-022 0.40×, prompt-026 0.40×, prompt-030 0.40× (E2E p90 2.50×, output throughput 0.72× the baseline's)",
    );
    const markdown = renderMarkdown(card);
    const firstScreen = markdown.split("\n<details>")[0] ?? "";
    expect(firstScreen).toContain("| Slower prompts | 8 of 30 prompts scored under 0.80×: prompt-002 0.40×,");
    expect(firstScreen).toContain("8 of 30 prompts (26.7%) scored below `gate.regressionFloor` 0.80×");
    expect(describeNextStep(card)).toContain("Find why some requests got slower while the median got faster");
    expect(renderText(card)).toContain("Slower prompts  8 of 30 prompts scored under 0.80×");
    // Within the share, the prompts are still named, and the gate is not failed for them.
    const few = makeCard(Array.from({ length: 30 }, (_, index) => ({ speedup: index === 3 ? 0.5 : 1.3 })));
    expect(few.gate.passed).toBe(true);
    expect(describeRegressedPrompts(few)).toMatch(/^1 of 30 prompts scored under 0\.80×: prompt-004 0\.50× \(E2E p90 0\.77×, /);
  });

  it("says which measure let unexplained answers through, and nothing where the rule failed (the gate says it) or none came up", () => {
    const card = makeCard(twelve);
    const statement =
      "2 of 64 answers (3.1%) are none the baseline gave: within the engine's own variation (shuffling which answers came from which " +
      "engine gave as many in 25% of shuffles; it gives at most 7 of 64 (…))";
    const within: Scorecard = {
      ...card,
      unexplainedAnswers: { count: 2, compared: 64, pValue: 0.25, baselineVaries: false },
      gate: { ...card.gate, unexplainedDecision: { rule: "within-variation", statement } },
    };
    expect(describeUnexplainedDecision(within)).toBe(statement);
    expect(renderMarkdown(within)).toContain(`| Answers | ${statement} |`);
    expect(describeUnexplainedDecision({ ...within, gate: { ...within.gate, unexplainedDecision: { rule: "shuffle", statement } } })).toBe(
      null,
    );
    expect(describeUnexplainedDecision(card)).toBeNull();
  });
});
