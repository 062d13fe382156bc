import { describe, expect, it } from "vitest";
import { findBaselineVariation } from "../../src/scoring/find-baseline-variation.js";
import type { CompletedRequest } from "../../src/scoring/request-record.js";
import { scoreRound } from "../../src/scoring/score-round.js";
import { renderAnswerVariation } from "../../src/scorecard/render-answer-variation.js";

/** An answer of `words` words, one token each, streamed one a chunk, 10 ms apart. */
function answer(words: string[], finish = "stop"): CompletedRequest {
  const content = words.join("");
  const contentEnds: number[] = [];
  let at = 0;
  for (const word of words) contentEnds.push((at += word.length));
  return {
    ok: true,
    chunks: words.map((_, index) => ({ tMs: 10 * (index + 1), tokens: index + 1 })),
    outputTokens: words.length,
    finishReason: finish,
    endMs: 10 * words.length + 1,
    tokensEstimated: false,
    text: { content, reasoning: "", contentEnds, reasoningEnds: words.map(() => 0) },
  };
}

const words = (count: number, from = 0): string[] => Array.from({ length: count }, (_, index) => ` w${from + index}`);

function round(runs: Array<Record<string, [CompletedRequest, CompletedRequest]>>) {
  return scoreRound({
    promptIds: Object.keys(runs[0] ?? {}),
    runs: runs.map((run) => ({
      baseline: { records: new Map(Object.entries(run).map(([id, [baseline]]) => [id, baseline])), failure: null },
      candidate: { records: new Map(Object.entries(run).map(([id, [, candidate]]) => [id, candidate])), failure: null },
    })),
    tolerance: 0.9,
    gate: { minRoundScore: 1, use: "interval-low", maxUnscored: 0.1, minPrompts: 1 },
    agreementTokens: 16,
  });
}

const RULES = { tolerance: 0.9, agreementTokens: 16, minPromptAgreement: 0.5 };

describe("findBaselineVariation", () => {
  it("explains a below-tolerance zero when the baseline's own answers to the prompt were as short in another run (94 alone, 79 batched)", () => {
    const long = words(94);
    const short = words(79);
    const result = round([
      { p1: [answer(long), answer(short)], p2: [answer(words(30)), answer(words(30))] },
      { p1: [answer(short), answer(short)], p2: [answer(words(30)), answer(words(30))] },
    ]);
    expect(result.prompts[0]?.runs[0]?.status).toBe("below_tolerance");
    const variation = findBaselineVariation(result.prompts, RULES);
    expect(variation).toEqual({
      promptsCompared: 2,
      promptsVaried: 1,
      explained: [{ id: "p1", run: 1, status: "below_tolerance", candidateTokens: 79, baselineMin: 79, baselineMax: 94, baselinePartsAt: null }],
    });
    expect(renderAnswerVariation({ answerVariation: variation })).toContain(
      "1 unscored prompt-run lies within it, so it is no evidence against the patch: p1 (run 1): the candidate answered 79 tokens, the baseline itself 79–94 over its runs.",
    );
  });

  it("does not explain a candidate shorter than anything the baseline answered, nor a baseline that never varied", () => {
    const result = round([
      { p1: [answer(words(94)), answer(words(40))] },
      { p1: [answer(words(79)), answer(words(79))] },
    ]);
    expect(findBaselineVariation(result.prompts, RULES)?.explained).toEqual([]);
    const steady = round([{ p1: [answer(words(50)), answer(words(20))] }, { p1: [answer(words(50)), answer(words(20))] }]);
    expect(findBaselineVariation(steady.prompts, RULES)).toEqual({ promptsCompared: 1, promptsVaried: 0, explained: [] });
    expect(renderAnswerVariation({ answerVariation: findBaselineVariation(steady.prompts, RULES) })).toBe("");
  });

  it("explains a diverged zero when the baseline's own answers part within the agreement window", () => {
    const result = round([
      { p1: [answer(words(40)), answer([...words(5), ...words(35, 100)])] },
      { p1: [answer([...words(3), ...words(37, 200)]), answer(words(40))] },
    ]);
    expect(result.prompts[0]?.runs.map((run) => run.status)).toEqual(["diverged", "diverged"]);
    expect(findBaselineVariation(result.prompts, RULES)?.explained).toEqual([
      { id: "p1", run: 1, status: "diverged", candidateTokens: 40, baselineMin: 40, baselineMax: 40, baselinePartsAt: 3 },
      { id: "p1", run: 2, status: "diverged", candidateTokens: 40, baselineMin: 40, baselineMax: 40, baselinePartsAt: 3 },
    ]);
  });

  it("tells nothing from a round of one run", () => {
    expect(findBaselineVariation(round([{ p1: [answer(words(94)), answer(words(79))] }]).prompts, RULES)).toBeNull();
  });
});
