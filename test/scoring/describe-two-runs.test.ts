import { describe, expect, it } from "vitest";
import { bootstrapRunsAndPrompts, runLevelFactor } from "../../src/scoring/bootstrap-interval.js";
import { describeTwoRuns } from "../../src/scoring/describe-two-runs.js";

/** Twelve prompts 1.2× faster, in runs whose levels differ by `spread` on the log scale. */
function runsOf(count: number, spread: number): { runs: number; prompts: number; values: Float64Array } {
  const prompts = 12;
  const values = new Float64Array(count * prompts);
  for (let run = 0; run < count; run++) {
    const level = Math.exp(((run % 2 === 0 ? 1 : -1) * spread) / 2);
    for (let prompt = 0; prompt < prompts; prompt++) values[run * prompts + prompt] = 1.2 * level * (1 + (prompt % 4) * 0.002);
  }
  return { runs: count, prompts, values };
}

describe("describeTwoRuns", () => {
  it("gives the factors the interval uses: 9.2 with two runs, 2.7 with three, none with one", () => {
    expect(runLevelFactor(1)).toBe(1);
    expect(runLevelFactor(2)).toBeCloseTo(9.17, 2);
    expect(runLevelFactor(3)).toBeCloseTo(2.69, 2);
    expect(runLevelFactor(10)).toBeCloseTo(1.22, 2);
  });

  it("is what the interval does: a 1.2x speedup whose runs differ by 6% holds 1x with two runs, and clears it with one or four", () => {
    expect(bootstrapRunsAndPrompts(runsOf(2, 0.06))?.low).toBeLessThan(1);
    expect(bootstrapRunsAndPrompts(runsOf(1, 0.06))?.low).toBeGreaterThan(1);
    expect(bootstrapRunsAndPrompts(runsOf(4, 0.06))?.low).toBeGreaterThan(1);
  });

  it("warns only for two runs under the interval rule, naming the setting", () => {
    expect(describeTwoRuns(2, "interval-low")).toBe(
      "bench.runs is 2: with two runs the interval pushes each run's level out 9.2× its difference from the other (Student's t with " +
        "one degree of freedom), so runs that differ by a few percent give an interval that holds 1× whatever the patch does; use 3 " +
        "runs or more (2.7× with 3), or 1",
    );
    expect(describeTwoRuns(2, "interval-low", "scenarios[1].runs")).toMatch(/^scenarios\[1\]\.runs is 2: /);
    for (const [runs, use] of [
      [1, "interval-low"],
      [3, "interval-low"],
      [2, "noise-floor"],
      [2, "round-score"],
    ] as const)
      expect(describeTwoRuns(runs, use)).toBeNull();
  });
});
