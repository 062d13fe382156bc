import { describe, expect, it } from "vitest";
import { describeInconclusive, describeNextStep } from "../../../src/scorecard/render/describe-summary.js";
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
