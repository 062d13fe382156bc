import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { boundClaimsByBytes, countWithTokenizer } from "../../src/client/finalize-records.js";
import { contentToken } from "../../src/sim-engine/token-text.js";
import { parseTokenizer } from "../../src/tokens/parse-tokenizer.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { textStream } from "../support/make-text-records.js";
import { timeToTokens } from "../../src/scoring/request-record.js";
import { scorePrompt } from "../../src/scoring/score-prompt.js";
import { explicitStream, failedRequest, steadyStream } from "../../harness/make-records.js";

describe("timeToTokens", () => {
  it("is the arrival of the chunk that first reaches k tokens, with chunks carrying several tokens", () => {
    const record = explicitStream([
      { tMs: 10, tokens: 3 },
      { tMs: 20, tokens: 7 },
      { tMs: 30, tokens: 8 },
    ]);
    expect(timeToTokens(record, 1)).toBe(10);
    expect(timeToTokens(record, 3)).toBe(10);
    expect(timeToTokens(record, 4)).toBe(20);
    expect(timeToTokens(record, 7)).toBe(20);
    expect(timeToTokens(record, 8)).toBe(30);
  });

  it("falls back to the end of the stream for zero tokens", () => {
    expect(timeToTokens(explicitStream([], 42), 0)).toBe(42);
  });
});

describe("scorePrompt", () => {
  it("excludes a prompt the baseline failed on: there is no reference", () => {
    const result = scorePrompt(failedRequest("HTTP 500"), steadyStream({ tokens: 10, ttftMs: 5, itlMs: 1 }), 0.9);
    expect(result).toMatchObject({ status: "excluded", score: null, speedup: null });
    expect(result.reason).toContain("HTTP 500");
  });

  it("zeroes a prompt the candidate failed on and says why", () => {
    const result = scorePrompt(
      steadyStream({ tokens: 10, ttftMs: 5, itlMs: 1 }),
      failedRequest("stream ended without [DONE]", "stream_error"),
      0.9,
    );
    expect(result).toEqual({ status: "zeroed", score: 0, speedup: null, comparedTokens: null, reason: "stream ended without [DONE]" });
  });

  it("scores nothing for a candidate that answers less than the tolerance", () => {
    const baseline = steadyStream({ tokens: 512, ttftMs: 50, itlMs: 10 });
    const candidate = steadyStream({ tokens: 120, ttftMs: 10, itlMs: 2 });
    expect(scorePrompt(baseline, candidate, 0.9)).toEqual({
      status: "below_tolerance",
      score: 0,
      speedup: null,
      comparedTokens: null,
      reason: "answered 120 of 512 tokens (tolerance 90%)",
    });
  });

  it("scores a candidate exactly at the tolerance bar", () => {
    const baseline = steadyStream({ tokens: 100, ttftMs: 10, itlMs: 10 });
    const candidate = steadyStream({ tokens: 90, ttftMs: 10, itlMs: 5 });
    const result = scorePrompt(baseline, candidate, 0.9);
    expect(result.status).toBe("scored");
    expect(result.comparedTokens).toBe(90);
    // T_b(90) = 10 + 89*10 = 900, T_c(90) = 10 + 89*5 = 455
    expect(result.speedup).toBeCloseTo(900 / 455, 10);
  });

  it("compares at the shorter length when the candidate answers more than the baseline", () => {
    const baseline = steadyStream({ tokens: 50, ttftMs: 20, itlMs: 4 });
    const candidate = steadyStream({ tokens: 80, ttftMs: 20, itlMs: 2 });
    const result = scorePrompt(baseline, candidate, 0.9);
    expect(result.comparedTokens).toBe(50);
    expect(result.speedup).toBeCloseTo((20 + 49 * 4) / (20 + 49 * 2), 10);
    expect(result.score).toBe(result.speedup);
  });

  it("gives exactly 1 for identical timelines (a tie)", () => {
    const record = steadyStream({ tokens: 64, ttftMs: 30, itlMs: 7 });
    expect(scorePrompt(record, structuredClone(record), 0.9)).toMatchObject({ status: "scored", score: 1, speedup: 1, comparedTokens: 64 });
  });

  it("times multi-token chunks at the chunk that crosses k", () => {
    const baseline = steadyStream({ tokens: 12, ttftMs: 10, itlMs: 10, tokensPerChunk: 4 }); // 4@10 8@20 12@30
    const candidate = steadyStream({ tokens: 10, ttftMs: 5, itlMs: 5, tokensPerChunk: 3 }); // 3@5 6@10 9@15 10@20
    const result = scorePrompt(baseline, candidate, 0.8);
    expect(result.comparedTokens).toBe(10);
    expect(result.speedup).toBeCloseTo(30 / 20, 10);
  });
});

describe("scorePrompt holds the candidate to the baseline's answer", () => {
  const counter = parseTokenizer(readFileSync(TEST_TOKENIZER_PATH), "test tokenizer");
  const words = (count: number, from = 0): string[] => Array.from({ length: count }, (_, index) => contentToken(from + index));
  const counted = (pieces: string[], options: Parameters<typeof textStream>[1] = {}) => {
    const record = textStream(pieces, options);
    countWithTokenizer(record, counter);
    return record;
  };

  it("scores a candidate giving the same answer, with agreement 1", () => {
    const result = scorePrompt(counted(words(40), { itlMs: 10 }), counted(words(40), { itlMs: 5 }), 0.9);
    expect(result).toMatchObject({ status: "scored", agreement: 1, agreedTokens: 40, comparedTokens: 40 });
  });

  it("calls a candidate that parts within the first agreementTokens diverged, quoting both answers escaped", () => {
    const baseline = counted(words(40));
    const candidate = counted([...words(5), ' "quoted"\n|x', ...words(34, 6)]);
    const result = scorePrompt(baseline, candidate, 0.9);
    expect(result).toMatchObject({ status: "diverged", score: 0, speedup: null, agreedTokens: 5 });
    expect(result.agreement).toBeCloseTo(5 / 40, 10);
    expect(result.reason).toContain("answers part at token 6 of 40, within the first 16 that must match");
    // JSON escapes keep quotes and newlines visible and on one line.
    expect(result.reason).toContain(
      'baseline …"answers é 中 🙂 fast. The engine answers "…, candidate …"answers é 中 \\"quoted\\"\\n|x fast. The engine"…',
    );
  });

  it("scores a candidate that parts after more than half of k, timed at the full k, with its partial agreement", () => {
    const result = scorePrompt(counted(words(40)), counted([...words(30), ...words(10, 31)]), 0.9);
    expect(result).toMatchObject({ status: "scored", agreedTokens: 30, comparedTokens: 40 });
    expect(result.agreement).toBeCloseTo(30 / 40, 10);
  });

  it("times answers that part late at the full k, but scores them no faster than over the tokens they share", () => {
    // Same pace for the first 24 tokens (60% of 40), then the candidate streams other text ten times as fast.
    const baseline = counted(words(40), { ttftMs: 10, itlMs: 10 });
    const candidate = textStream([...words(24), ...words(16, 25)], { ttftMs: 10, itlMs: 10 });
    candidate.chunks.forEach((chunk, index) => (chunk.tMs = index < 24 ? 10 + index * 10 : 240 + (index - 23)));
    countWithTokenizer(candidate, counter);
    const result = scorePrompt(baseline, candidate, 0.9);
    // Both engines had to produce 40 tokens: the baseline took 400 ms, the candidate 256 ms, 1.56× on its filler;
    // over the 24 tokens they share both took 240 ms, and that is the score.
    expect(result).toMatchObject({ status: "scored", comparedTokens: 40, agreedTokens: 24 });
    expect(result.speedup).toBeCloseTo(1, 10);
    // Honest drift is as fast after the parting as before: the same candidate, steady to the end, scores its pace.
    const steady = textStream([...words(24), ...words(16, 25)], { ttftMs: 5, itlMs: 5 });
    countWithTokenizer(steady, counter);
    expect(scorePrompt(baseline, steady, 0.9).speedup).toBeCloseTo(timeToTokens(baseline, 24) / timeToTokens(steady, 24), 10);
  });

  it.each([
    [17, 40, "17 tokens"],
    [10, 40, "25%"],
    [20, 40, "exactly 50%"],
  ])(
    "calls an answer that parts after %i of %i tokens (%s) diverged: it agrees on no more than bench.minPromptAgreement 0.5",
    (agreed, total, _what) => {
      const result = scorePrompt(counted(words(total)), counted([...words(agreed), ...words(total - agreed, agreed + 1)]), 0.9, {
        agreementTokens: 8,
      });
      expect(result).toMatchObject({ status: "diverged", score: 0, speedup: null, comparedTokens: total, agreedTokens: agreed });
      expect(result.reason).toMatch(
        new RegExp(
          `^answers part at token ${agreed + 1} of ${total}: they agree on [0-9.]+% of it, no more than bench.minPromptAgreement ` +
            `50%: baseline `,
        ),
      );
      expect(result.evidence).toMatchObject({ partsAt: agreed + 1, baselineClaimed: total, candidateClaimed: total });
      expect(result.evidence?.baselineExcerpt).toMatch(/^…"/);
      expect(result.evidence?.candidateExcerpt).toMatch(/^…"/);
    },
  );

  it("scores an answer that agrees on just over half of k, and lets bench.minPromptAgreement 0 turn the share rule off", () => {
    expect(scorePrompt(counted(words(40)), counted([...words(21), ...words(19, 22)]), 0.9)).toMatchObject({
      status: "scored",
      agreedTokens: 21,
    });
    expect(scorePrompt(counted(words(40)), counted([...words(17), ...words(23, 18)]), 0.9, { minPromptAgreement: 0 })).toMatchObject({
      status: "scored",
      agreedTokens: 17,
    });
  });

  it("checks neither rule with both set to 0, but still measures the agreement", () => {
    const result = scorePrompt(counted(words(40)), counted(words(40, 1)), 0.9, { agreementTokens: 0, minPromptAgreement: 0 });
    expect(result).toMatchObject({ status: "scored", agreement: 0 });
  });

  it("does not call an answer diverged that only stops earlier within tolerance", () => {
    const result = scorePrompt(counted(words(40)), counted(words(38)), 0.9);
    expect(result).toMatchObject({ status: "scored", agreement: 1, comparedTokens: 38 });
  });

  it("compares texts without a tokenizer, counting the common start in the baseline's tokens", () => {
    const result = scorePrompt(textStream(words(40)), textStream([...words(3), " other", ...words(36, 4)]), 0.9);
    expect(result).toMatchObject({ status: "diverged", agreedTokens: 3 });
  });

  it("calls a candidate implausible whose claims exceed its bytes, and names the claim", () => {
    const candidate = textStream(["t0 "], { claims: [40] });
    boundClaimsByBytes(candidate);
    const result = scorePrompt(textStream(words(40)), candidate, 0.9);
    expect(result).toMatchObject({ status: "implausible", score: 0, speedup: null });
    expect(result.reason).toMatch(/^token counts cannot be true: claimed 40 tokens by chunk 1 of 1, which had streamed 3 bytes/);
  });

  it("calls a candidate implausible that claims more tokens than the baseline did for the same text", () => {
    const claims = Array.from({ length: 40 }, (_, index) => (index + 1) * 3);
    const result = scorePrompt(textStream(words(40)), textStream(words(40), { claims }), 0.9);
    expect(result.status).toBe("implausible");
    expect(result.reason).toContain("where the baseline counted at most");
  });

  it("excludes a prompt whose baseline claims cannot be true: the reference itself is unsound", () => {
    const baseline = textStream(["x"], { claims: [99] });
    boundClaimsByBytes(baseline);
    expect(scorePrompt(baseline, textStream(words(40)), 0.9)).toMatchObject({ status: "excluded", score: null });
  });

  it("adds the engine's own claim to a below-tolerance reason when it disagrees with speedgate's count", () => {
    const candidate = counted([" The"], { claims: [40] });
    expect(scorePrompt(counted(words(40)), candidate, 0.9).reason).toBe("answered 1 of 40 tokens (tolerance 90%); the engine claimed 40");
  });
});
