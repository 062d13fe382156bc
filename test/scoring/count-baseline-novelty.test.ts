import { describe, expect, it } from "vitest";
import { countBaselineNovelty } from "../../src/scoring/count-baseline-novelty.js";

/** One prompt's pooled answers from labels (the baseline's, then the candidate's); "-" is no answer; equal labels are equal answers. */
function pool(baseline: string, candidate: string) {
  const labels = [...baseline, ...candidate];
  return {
    prefixes: labels.map((label, index) =>
      label === "-" ? null : labels.flatMap((other, j) => (j !== index && other !== "-" && other === label ? [j] : [])),
    ),
  };
}

describe("countBaselineNovelty: the baseline held to its own other runs", () => {
  it("counts each baseline answer none of its other answers to the prompt explains, whatever the candidate gave", () => {
    expect(countBaselineNovelty([pool("AAAA", "BBBB")])).toEqual({ novel: 0, compared: 4 });
    // B once among four: B is novel; each A has another A.
    expect(countBaselineNovelty([pool("AAAB", "AAAA")])).toEqual({ novel: 1, compared: 4 });
    expect(countBaselineNovelty([pool("AABB", "CCCC"), pool("ABCD", "AAAA")])).toEqual({ novel: 4, compared: 8 });
  });

  it("leaves out prompts the baseline answered once, and runs it gave no answer in", () => {
    expect(countBaselineNovelty([pool("A---", "AAAA"), pool("AB--", "AAAA"), pool("A", "A")])).toEqual({ novel: 2, compared: 2 });
  });

  it("takes a shorter answer another answer starts with as explained, and one that is only the start of another as not", () => {
    // Answer 0 is the start of answer 1 (a longer answer): 1 is explained by 0, 0 by nothing.
    expect(countBaselineNovelty([{ prefixes: [[], [0], [0], null] }])).toEqual({ novel: 1, compared: 2 });
  });
});
