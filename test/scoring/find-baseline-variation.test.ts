import { describe, expect, it } from "vitest";
import { findBaselineVariation } from "../../src/scoring/find-baseline-variation.js";
import type { CompletedRequest } from "../../src/scoring/request-record.js";
import { scoreRound } from "../../src/scoring/score-round.js";
import { renderAnswerVariation } from "../../src/scorecard/render/render-answer-variation.js";

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
  it("scores a short answer the baseline gave in another run against that run (94 alone, 79 batched), and says so", () => {
    const long = words(94);
    const short = words(79);
    const result = round([
      { p1: [answer(long), answer(short)], p2: [answer(words(30)), answer(words(30))] },
      { p1: [answer(short), answer(short)], p2: [answer(words(30)), answer(words(30))] },
    ]);
    // Not below tolerance: the baseline itself stopped there in run 2, and the answer is timed against that one.
    expect(result.prompts[0]?.runs[0]).toMatchObject({
      status: "scored",
      match: "other",
      baselineRun: 2,
      comparedTokens: 79,
      baselineTokens: 79,
    });
    const variation = findBaselineVariation(result.prompts, RULES);
    expect(variation).toEqual({ promptsCompared: 2, promptsVaried: 1, explained: [] });
    const card = {
      answerVariation: variation,
      prompts: result.prompts.map((prompt) => ({ ...prompt, runs: prompt.runs.map((run) => ({ ...run, match: run.match ?? undefined })) })),
      unexplainedAnswers: result.unexplainedAnswers,
    } as unknown as Parameters<typeof renderAnswerVariation>[0];
    expect(renderAnswerVariation(card)).toContain(
      "The engine answers p1 (2 answers seen from the baseline) more than one way. Each candidate answer is held to every answer the " +
        "baseline gave and timed against the one it follows: 1 of 4 prompt-runs gave an answer the baseline gave in another run " +
        "(scored as usual), 0 gave one no baseline answer explains",
    );
  });

  it("does not explain a candidate shorter than anything the baseline answered, nor a baseline that never varied", () => {
    const result = round([{ p1: [answer(words(94)), answer(words(40))] }, { p1: [answer(words(79)), answer(words(79))] }]);
    expect(findBaselineVariation(result.prompts, RULES)?.explained).toEqual([]);
    const steady = round([{ p1: [answer(words(50)), answer(words(20))] }, { p1: [answer(words(50)), answer(words(20))] }]);
    expect(findBaselineVariation(steady.prompts, RULES)).toEqual({ promptsCompared: 1, promptsVaried: 0, explained: [] });
    expect(renderAnswerVariation({ answerVariation: findBaselineVariation(steady.prompts, RULES) })).toBe("");
  });

  it("zeroes an early parting on a prompt whose answers do not vary, but times one where they do", () => {
    const steady = round([
      { p1: [answer(words(40)), answer([...words(5), ...words(35, 100)])] },
      { p1: [answer(words(40)), answer([...words(5), ...words(35, 100)])] },
    ]);
    // The baseline answers one way, the candidate another after 5 tokens, every time: not the baseline's answer.
    expect(steady.prompts[0]?.runs.map((run) => [run.status, run.match, run.agreedTokens])).toEqual([
      ["diverged", "none", 5],
      ["diverged", "none", 5],
    ]);
    const varied = round([
      { p1: [answer(words(40)), answer([...words(5), ...words(35, 100)])] },
      { p1: [answer([...words(3), ...words(37, 200)]), answer([...words(3), ...words(37, 500)])] },
    ]);
    // The baseline's own answers part at token 4: the candidate's early partings are timed, not zeroed, and counted as unexplained.
    expect(varied.prompts[0]?.runs[0]).toMatchObject({ status: "scored", match: "none", agreedTokens: 5, baselinePartsHere: false });
    expect(varied.prompts[0]?.runs[0]?.reason).toMatch(
      /^parted from every answer the baseline gave at token 6 of 40 and is timed over the 5 tokens they share/,
    );
    expect(varied.prompts[0]?.runs[1]).toMatchObject({ status: "scored", match: "none", agreedTokens: 3, baselinePartsHere: true });
    expect(varied.prompts[0]?.runs[1]?.reason).toMatch(
      /^parted from every answer the baseline gave at token 4 of 40, where the baseline's own answers part too,/,
    );
    expect(varied.unexplainedAnswers).toMatchObject({ count: 2, compared: 2 });
    expect(findBaselineVariation(varied.prompts, RULES)?.explained).toEqual([]);
  });

  it("tells nothing from a round of one run", () => {
    expect(findBaselineVariation(round([{ p1: [answer(words(94)), answer(words(79))] }]).prompts, RULES)).toBeNull();
  });
});
