import { describe, expect, it } from "vitest";
import { BUILT_IN_WORDS, answerRun, answerTokenId } from "../../src/sim-engine/answer-text.js";
import { answerStyle, cheatsSchema } from "../../src/sim-engine/sim-integrity-profile.js";
import { DEFAULT_ANSWER } from "../../src/sim-engine/sim-integrity-profile.js";

const target = (promptId: string | null, start: number, tag: number) => ({ promptId, start, tag });

describe("answerStyle: the filler cheats", () => {
  it("gives every request's unique filler its own text, after the honest start it shares with the baseline", () => {
    const cheats = cheatsSchema.parse({ fillerAfterTokens: 17, uniqueFiller: true });
    const one = answerStyle(DEFAULT_ANSWER, cheats, 48, 0, null, target("p1", 1, 12_345));
    const two = answerStyle(DEFAULT_ANSWER, cheats, 48, 0, null, target("p1", 1, 12_346));
    expect(one).toMatchObject({ fillerAfterTokens: 17, fillerTag: 12_345 });
    const honest = answerRun(BUILT_IN_WORDS, { filler: false, divergeAfterTokens: null }, "content", 0, 48, 0);
    const first = answerRun(BUILT_IN_WORDS, one, "content", 0, 48, 0);
    const second = answerRun(BUILT_IN_WORDS, two, "content", 0, 48, 0);
    const start = answerRun(BUILT_IN_WORDS, one, "content", 0, 17, 0);
    expect(honest.startsWith(start)).toBe(true);
    expect(second.startsWith(start)).toBe(true);
    expect(first).not.toBe(second);
    expect(first).not.toBe(honest);
    // The same, as token ids for the offline model: equal up to the filler, then apart.
    const ids = (style: typeof one) => Array.from({ length: 48 }, (_, index) => answerTokenId(style, index, index));
    expect(ids(one).slice(0, 17)).toEqual(ids(two).slice(0, 17));
    expect(ids(one).slice(17)).not.toEqual(ids(two).slice(17));
  });

  it("plays the filler only on the prompts and starts it is told to, and the one filler word without uniqueFiller", () => {
    const cheats = cheatsSchema.parse({ fillerAfterTokens: 4, fillerPrompts: ["p2"], fillerOnStarts: [1, 2] });
    expect(answerStyle(DEFAULT_ANSWER, cheats, 16, 1, null, target("p2", 1, 7))).toMatchObject({ fillerAfterTokens: 4, fillerTag: null });
    expect(answerStyle(DEFAULT_ANSWER, cheats, 16, 0, null, target("p1", 1, 7))).toMatchObject({ fillerAfterTokens: null });
    expect(answerStyle(DEFAULT_ANSWER, cheats, 16, 1, null, target("p2", 0, 7))).toMatchObject({ fillerAfterTokens: null });
    // A warm-up request matches no prompt: a cheat limited to prompts never plays on it.
    expect(answerStyle(DEFAULT_ANSWER, cheats, 16, null, null, target(null, 1, 7))).toMatchObject({ fillerAfterTokens: null });
    const plain = answerRun(BUILT_IN_WORDS, answerStyle(DEFAULT_ANSWER, cheats, 16, 1, null, target("p2", 2, 7)), "content", 4, 8, 0);
    expect(plain).toBe(" engine engine engine engine");
  });
});
