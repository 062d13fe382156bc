import { describe, expect, it } from "vitest";
import type { CalibrationFile } from "../../../src/calibration/calibration-schema.js";
import { describeBudgetReach, describeCalibration } from "../../../src/cli/commands/calibrate-command.js";
import { detectableWithin } from "../../../src/scoring/decide-sequential.js";
import { makeCalibrationFile } from "../../support/make-calibration-file.js";

/** A queue-bound A/A study on a CPU runner: scores spread wide, as the queue's draining makes them. */
function study(): CalibrationFile {
  return makeCalibrationFile([1.69, 0.8, 1.2, 0.6, 1.4]);
}

describe("describeCalibration", () => {
  it("warns of each scenario whose unchanged engine left more prompts unscored than that scenario's own gate.maxUnscored allows", () => {
    const file = study();
    const unrepeatable = file.rounds.map((round, index) => ({ ...round, unscored: index === 0 ? 3 : 0 }));
    const scenarios = [
      { name: "decode-c1", promptsHash: file.promptsHash, settings: file.settings, rounds: file.rounds, noise: file.noise },
      { name: "chat-c1", promptsHash: "2".repeat(64), settings: file.settings, rounds: unrepeatable, noise: file.noise },
    ];
    const text = describeCalibration({ ...file, scenarios }, 0.1);
    expect(text).toContain(
      "warning: the unchanged engine left up to 25% of the prompts of scenario chat-c1 unscored in one round, more than " +
        "gate.maxUnscored 10%",
    );
    expect(text).not.toContain("of scenario decode-c1 unscored");
    // A scenario that allows more is held to its own limit.
    expect(describeCalibration({ ...file, scenarios }, 0.1, [], new Map([["chat-c1", 0.3]]))).not.toContain("unscored in one round");
  });

  it("says when the A/A rounds were queue-bound, why, and the setting that fixes it", () => {
    const why =
      "the baseline's median time to first token was 183 ms, of which its own prompt processing was 3.9 ms: 97% was waiting in its queue";
    const fix =
      "set bench.requestIntervalMs to at least 1,200 ms (it is 250 ms), or give the engine more parallel slots, then calibrate again";
    const text = describeCalibration(study(), 0.1, [{ rounds: 5, first: { why, fix, scenario: null } }]);
    expect(text).toContain(
      `warning: 5 of 5 A/A rounds were queue-bound (in the first, ${why}): this floor measures how the baseline's queue drains, not ` +
        `its speed; ${fix}`,
    );
    expect(describeCalibration(study(), 0.1)).not.toContain("queue-bound");
  });

  it("reports the run-to-run spread and, for budgets of 4, 8, 16 and 24 runs, the smallest speedup passed 95% of the time", () => {
    // A/A rounds of 2 runs whose scores spread 4%: one run's score spreads √2 as much.
    const scores = [1.04, 0.97, 1.0, 1.05, 0.96, 1.01, 0.99, 1.03, 0.97, 1.0, 1.02, 0.98, 1.0, 1.04, 0.97, 1.01, 0.99, 1.02, 0.98, 1.0];
    const file = makeCalibrationFile(scores);
    const twoRuns = { ...file, settings: { ...file.settings, runs: 2, order: "counterbalanced" as const } };
    const [spread, reach] = describeBudgetReach(twoRuns);
    const logs = scores.map(Math.log);
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1)) * Math.SQRT2;
    expect(spread).toBe(
      `  run-to-run spread: one run's score spreads ${(Math.round(sd * 1000) / 10).toString()}% (standard deviation, log scale: ` +
        "the A/A round scores' spread × √2 runs)",
    );
    const BUDGETS = [4, 8, 16, 24];
    const quoted = (calibrated: { degrees: number } | null): number[] =>
      BUDGETS.map((max) => detectableWithin({ min: 2, max }, "counterbalanced", sd, calibrated));
    const withFile = quoted({ degrees: 19 });
    const without = quoted(null);
    // More runs detect less, and twenty A/A rounds' spread (19 degrees of freedom) less than a round's own starts (2(R − 1)).
    expect(withFile[0]).toBeGreaterThan(withFile[1] as number);
    expect(withFile[1]).toBeGreaterThan(withFile[2] as number);
    expect(withFile[2]).toBeGreaterThan(withFile[3] as number);
    // The calibration's 19 degrees hold more than a round's own starts up to 8 runs (2(R − 1) = 14); at 16 and 24 runs the
    // starts have 30 and 46, and the two reach alike (within half a percent).
    BUDGETS.forEach((max, index) => {
      if (2 * (max - 1) < 19) expect(withFile[index]).toBeLessThan(without[index] as number);
      else expect(Math.abs((withFile[index] as number) / (without[index] as number) - 1)).toBeLessThan(0.005);
    });
    expect(reach).toBe(
      "  smallest speedup over the bar a run budget (bench.runs { min: 2, max }) passes 95% of the time here: gating on this file " +
        withFile.map((value, index) => `${value.toFixed(2)}× in ${BUDGETS[index]} runs`).join(", ") +
        "; without a calibration " +
        without.map((value, index) => `${value.toFixed(2)}× in ${BUDGETS[index]} runs`).join(", "),
    );
    expect(describeCalibration(twoRuns, 0.1)).toContain(reach);
  });

  it("names the scenario whose A/A rounds were queue-bound, not the headline's", () => {
    const text = describeCalibration(study(), 0.1, [
      { rounds: 2, first: { why: "98% was waiting", fix: "lower bench.concurrency", scenario: "decode-c8" } },
      { rounds: 5, first: { why: "100% was waiting", fix: "lower it too", scenario: "decode-c32" } },
    ]);
    // #39: every queue-bound scenario by name, each with its own figures and fix, not only the first one found.
    expect(text).toContain(
      "warning: 2 of 5 A/A rounds were queue-bound in scenario decode-c8 (in the first, 98% was waiting): scenario decode-c8's floor " +
        "measures how the baseline's queue drains, not its speed; lower bench.concurrency",
    );
    expect(text).toContain("warning: 5 of 5 A/A rounds were queue-bound in scenario decode-c32 (in the first, 100% was waiting)");
  });

  // #39: five A/A rounds of one study all below 1 (0.34–0.92) on a shared CPU runner, without a word from calibrate.
  it("warns when every A/A round fell on one side of 1×, and not when they straddle it", () => {
    const biased = describeCalibration(makeCalibrationFile([0.34, 0.92, 0.71, 0.55, 0.8]), 0.1);
    expect(biased).toContain(
      "warning: all 5 A/A rounds scored below 1.00× (0.34×–0.92×): the baseline against itself should land on both sides",
    );
    expect(describeCalibration(makeCalibrationFile([1.01, 0.99, 1.02, 0.98, 1.0]), 0.1)).not.toContain("A/A rounds scored");
  });

  it("warns when the floor is too wide to gate anything, with the smallest speedup the runner could show; not on a quiet runner", () => {
    const noisy = describeCalibration(study(), 0.1);
    expect(noisy).toMatch(/warning: the noise floor is \+\d+(\.\d)?%: a patch must be about \d+\.\d\d× as fast to pass 95% of the time/);
    expect(describeCalibration(makeCalibrationFile([1.01, 0.99, 1.02, 0.98, 1.0]), 0.1)).not.toContain("warning");
  });
});
