import { describe, expect, it } from "vitest";
import { UNEXPLAINED_SIGNIFICANCE } from "../../src/scoring/judge-unexplained.js";
import { shuffleUnexplained } from "../../src/scoring/shuffle-unexplained.js";

/**
 * One prompt's pooled answers from labels: the baseline's four, then the candidate's four. Equal labels
 * are equal answers (each the start of the other); different labels part.
 */
function prompt(baseline: string, candidate: string) {
  const labels = [...baseline, ...candidate];
  return { prefixes: labels.map((label, index) => labels.flatMap((other, j) => (j !== index && other === label ? [j] : []))) };
}

describe("shuffleUnexplained: the candidate's unexplained answers against shuffles of the two engines' labels", () => {
  it("finds nothing to weigh when every candidate answer is one the baseline gave", () => {
    expect(shuffleUnexplained([prompt("AAAA", "AAAA"), prompt("AABB", "BABA")])).toEqual({ observed: 0, compared: 8, pValue: 1 });
  });

  it(
    "does not hold an honest mix of the engine's own two continuations against " +
      "the candidate, even where it took one the baseline did not",
    () => {
      // Eight bistable prompts: the candidate took B where the baseline's four runs all gave A, and the reverse, as chance has it.
      const prompts = [
        prompt("AAAA", "AABA"),
        prompt("BBBB", "BABB"),
        prompt("ABAB", "AABB"),
        prompt("AABB", "ABBA"),
        prompt("AAAB", "BBAA"),
        prompt("ABBB", "AAAB"),
        prompt("AAAA", "AAAA"),
        prompt("BBAB", "ABAB"),
      ];
      const result = shuffleUnexplained(prompts);
      expect(result.observed).toBe(2);
      expect(result.pValue).toBeGreaterThan(0.2);
    },
  );

  it("finds a continuation replaced on every bistable prompt: the baseline's B never meets the candidate's F", () => {
    const prompts = Array.from({ length: 7 }, () => prompt("AABB", "AFAF"));
    const result = shuffleUnexplained(prompts);
    expect(result.observed).toBe(14);
    expect(result.pValue).toBeLessThan(UNEXPLAINED_SIGNIFICANCE);
  });

  it("finds a deterministic engine's answer changed on a few prompts in every run, and gives the same p-value every time", () => {
    const prompts = [
      ...Array.from({ length: 3 }, () => prompt("AAAA", "DDDD")),
      ...Array.from({ length: 20 }, () => prompt("AAAA", "AAAA")),
    ];
    const first = shuffleUnexplained(prompts);
    expect(first.observed).toBe(12);
    expect(first.pValue).toBeLessThan(0.001);
    expect(shuffleUnexplained(prompts)).toEqual(first);
  });

  it(
    "finds unique filler, honest in one run of four: an answer that matches nothing is evidence while it is the candidate's, and " +
      "weighs nothing on the baseline's side of a shuffle",
    () => {
      // Each of F, G, H matches no other answer. Counting the answers of either side that the other side does not explain, every
      // shuffle counted all three wherever it put them, and the round's p-value was 1.
      const prompts = [
        ...Array.from({ length: 14 }, () => prompt("AAAA", "AFGH")),
        ...Array.from({ length: 16 }, () => prompt("AAAA", "AAAA")),
      ];
      const result = shuffleUnexplained(prompts);
      expect(result.observed).toBe(42);
      expect(result.pValue).toBeLessThan(0.001);
      // One such prompt is weak evidence on its own: all three on the candidate's side in 5 of 70 labellings.
      expect(shuffleUnexplained([prompt("AAAA", "AFGH")]).pValue).toBeCloseTo(5 / 70, 2);
    },
  );

  it("counts one odd answer of one prompt as the engine's own chance, not evidence", () => {
    expect(shuffleUnexplained([prompt("AAAA", "AAAD")]).pValue).toBeGreaterThan(0.4);
  });
});

describe("shuffleUnexplained in any order", () => {
  it("gives the same p-value for the same prompts listed in another order, as a merge of shard cards lists them", () => {
    const prompts = [
      prompt("AABB", "AFAF"),
      prompt("AAAA", "AAAD"),
      prompt("ABAB", "AFBF"),
      prompt("AAAB", "BAAA"),
      prompt("AAAA", "DDDA"),
    ];
    expect(shuffleUnexplained([...prompts].reverse())).toEqual(shuffleUnexplained(prompts));
    expect(shuffleUnexplained([prompts[2]!, prompts[0]!, prompts[4]!, prompts[1]!, prompts[3]!])).toEqual(shuffleUnexplained(prompts));
  });
});
