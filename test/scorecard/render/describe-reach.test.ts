import { describe, expect, it } from "vitest";
import { describeNoise, describeReach } from "../../../src/scorecard/render/describe-card.js";
import type { Scorecard } from "../../../src/scorecard/scorecard-schema.js";
import { makeCard } from "../../../harness/make-card.js";

function withInterval(card: Scorecard, roundScore: number, low: number): Scorecard {
  return {
    ...card,
    roundScore,
    scoreInterval: { ...(card.scoreInterval ?? { high: roundScore * 1.05, level: 0.95, resamples: 2000 }), low },
  } as Scorecard;
}

describe("describeReach: the smallest score this round's own noise lets pass", () => {
  const card = makeCard(Array.from({ length: 12 }, (_, index) => ({ id: `p${index + 1}`, speedup: 1.02 })));

  it("is the bar times the score over the interval's low end, with how far below the score the interval reaches", () => {
    // An interval from 0.95 for a score of 1.02: a candidate needs 1.02/0.95 = 1.074× to clear a bar of 1.
    const reach = describeReach(withInterval(card, 1.02, 0.95));
    expect(reach).toBe(
      "at this round's noise (its interval reaches 6.9% below its score) the smallest round score that passes is 1.074×; more " +
        "prompts, more runs (bench.runs), a slower pace (bench.requestIntervalMs) or a calibration lower it",
    );
    expect(describeNoise(withInterval(card, 1.02, 0.95))).toContain("the smallest round score that passes is 1.074×");
  });

  it("says nothing without an interval or under another rule than the interval's low end", () => {
    expect(describeReach({ ...card, scoreInterval: null })).toBeNull();
    expect(describeReach({ ...withInterval(card, 1.02, 0.95), gate: { ...card.gate, use: "round-score" } })).toBeNull();
  });
});
