import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { regateScorecard } from "../../src/github/regate-scorecard.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import type { Scorecard } from "../../src/scorecard/scorecard-schema.js";
import type { SimRequestRecord } from "../../src/sim-engine/chunk-write-log.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { PROMPT_IDS, runSimRound, simCommand, writeCliRound } from "../cli/support/sim-round.js";

/*
 * A pull request is written by the person whose score it is. Each cheat below is a reference engine
 * (`speedgate sim-engine`, a real process) doing what a patch could make a real engine do, scored by
 * `speedgate run` end to end; each must end in a card that does not pass and says why, while an
 * honest 2× candidate still scores about 2× and passes.
 */

/**
 * 24 tokens at 40 ms each after an 80 ms first token, about a second an answer: long enough for a loaded
 * machine's timer noise not to matter. The six answers of a run are in flight together, so a stall of the
 * test process lengthens all of them at once; at 20 ms a token (the honest candidate's answers a quarter of
 * a second), one of an eighth of a second would take the honest 2× candidate's interval under its bar of
 * 1.35×, and one of a sixth the same-speed cheats' scores out of 0.7–1.3×; at 40 ms it takes twice that.
 */
const BASELINE = ["--ttft-ms", "80", "--itl-ms", "40", "--output-tokens", "24"];
const TWICE_AS_FAST = ["--ttft-ms", "40", "--itl-ms", "20", "--output-tokens", "24"];
const FOUR_TIMES_AS_FAST = ["--ttft-ms", "20", "--itl-ms", "10", "--output-tokens", "24"];

const withTokenizer = { tokenizer: { path: TEST_TOKENIZER_PATH, from: "runner" as const } };

async function playRound(
  candidate: string[],
  options: { tokenizer?: boolean; chunkLog?: boolean; warmupRequests?: number } = {},
): Promise<{ card: Scorecard; markdown: string; dir: string }> {
  const { dir, configPath } = await writeCliRound({
    baseline: { command: simCommand(...BASELINE) },
    candidate: { command: simCommand(...candidate, ...(options.chunkLog ? ["--chunk-log", "candidate-chunks.jsonl"] : [])) },
    // Warm-up requests first: a fresh engine process answers its very first requests late, both engines alike.
    bench: {
      maxTokens: 64,
      requestIntervalMs: 30,
      warmupRequests: options.warmupRequests ?? 4,
      ...(options.tokenizer === false ? {} : withTokenizer),
    },
    gate: {
      // Well under the honest candidate's 2x: with one run over six prompts, a burst of other work on a loaded machine
      // that slows one of its prompts must not close the gate (a bar of 1.5 did, in CI); every cheat below scores 1.3 or less.
      minRoundScore: 1.35,
      // Each cheat is caught prompt by prompt: six prompts keep these rounds short, so the gate's minimum is lowered to them.
      minPrompts: PROMPT_IDS.length,
    },
  });
  const { card } = await runSimRound(configPath, dir);
  if (!card) throw new Error("no card");
  return { card, markdown: renderMarkdown(card), dir };
}

/** What the candidate's engine recorded of each request it was sent (playRound's chunkLog). */
async function readCandidateRequests(dir: string): Promise<SimRequestRecord[]> {
  const text = await readFile(join(dir, "candidate-chunks.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as SimRequestRecord);
}

describe("cheating engines get a card that does not pass (speedgate run, reference engine)", () => {
  it("an honest 2× candidate scores about 2× and passes, with median agreement 1.0", async () => {
    const { card, markdown } = await playRound(TWICE_AS_FAST);
    expect(card.failure).toBeNull();
    expect(card.promptsScored).toBe(PROMPT_IDS.length);
    expect(card.roundScore).toBeGreaterThan(1.5);
    expect(card.roundScore).toBeLessThan(2.5);
    expect(card.gate.passed).toBe(true);
    expect(card.medianAgreement).toBe(1);
    expect([card.diverged, card.implausible]).toEqual([0, 0]);
    expect(card.prompts.every((prompt) => prompt.candidate?.outputTokens === 24 && prompt.candidate.claimedTokens === 24)).toBe(true);
    expect(markdown).toContain("| Median agreement | 100% of the compared tokens are the baseline's answer (gate.minAgreement 100%) |");
    expect(markdown).toContain("Token counts are speedgate's own");
  });

  it(
    "claimed tokens (one chunk, usage says the full length): below " + "tolerance with speedgate's count, the claim shown beside it",
    async () => {
      const { card, markdown } = await playRound([...TWICE_AS_FAST, "--cheat-claim-tokens"]);
      expect(card.gate.passed).toBe(false);
      expect(card.roundScore).toBe(0);
      for (const prompt of card.prompts) {
        expect(prompt.status).toBe("below_tolerance");
        expect(prompt.reason).toBe("answered 1 of 24 tokens (tolerance 90%); the engine claimed 24");
        expect(prompt.candidate).toMatchObject({ outputTokens: 1, claimedTokens: 24 });
      }
      expect(markdown).toContain("candidate engine claimed 24 tokens, speedgate counted 1");
    },
  );

  it("claimed tokens without a tokenizer: implausible, saying what was claimed and what was streamed", async () => {
    const { card, markdown } = await playRound([...TWICE_AS_FAST, "--cheat-claim-tokens"], { tokenizer: false });
    expect(card.gate.passed).toBe(false);
    expect(card.implausible).toBe(PROMPT_IDS.length);
    for (const prompt of card.prompts) {
      expect(prompt).toMatchObject({ status: "implausible", score: 0 });
      expect(prompt.reason).toMatch(/^token counts cannot be true: claimed 24 tokens by chunk 1 of 1, which had streamed 4 bytes of text/);
    }
    expect(markdown).toContain(`| Implausible | ${PROMPT_IDS.length}: claimed more tokens than the stream held |`);
    expect(markdown).toContain("❌ implausible");
  });

  it("inflated usage on the right text, without a tokenizer: implausible against the baseline's count of the same text", async () => {
    const { card } = await playRound([...BASELINE, "--usage-per-chunk", "--cheat-usage-factor", "3"], { tokenizer: false });
    expect(card.gate.passed).toBe(false);
    expect(card.prompts.every((prompt) => prompt.status === "implausible")).toBe(true);
    expect(card.prompts[0]?.reason).toMatch(/which are the baseline's too, where the baseline counted at most/);
  });

  it("filler text four times as fast: diverged, the reason quoting where both answers part", async () => {
    const { card, markdown } = await playRound([...FOUR_TIMES_AS_FAST, "--cheat-filler-text"]);
    expect(card.gate.passed).toBe(false);
    expect(card.roundScore).toBe(0);
    expect(card.diverged).toBe(PROMPT_IDS.length);
    expect(card.medianAgreement).toBe(0);
    const first = card.prompts[0];
    expect(first).toMatchObject({ status: "diverged", score: 0, agreement: 0, agreedTokens: 0 });
    expect(first?.reason).toBe(
      'answers part at token 1 of 24, within the first 16 that must match: baseline " The engine answers é 中 🙂 fa"…, candidate " ' +
        'engine engine engine engine "…',
    );
    expect(markdown).toContain(
      `| Diverged | ${PROMPT_IDS.length}: answered differently from the baseline within the first 16 tokens, or agreed on no more ` +
        `than 50% of the compared length |`,
    );
    // What each status rests on, folded: where the answers part and both quotes.
    expect(markdown).toContain(`<details><summary>Answers that part from the baseline's (${PROMPT_IDS.length})</summary>`);
    expect(markdown).toContain("- p1, diverged: parts at token 1 of 24: baseline");
    expect(markdown).toContain("❌ diverged");
  });

  it("filler text without a tokenizer: diverged too, compared by text", async () => {
    const { card } = await playRound([...FOUR_TIMES_AS_FAST, "--cheat-filler-text"], { tokenizer: false });
    expect(card.gate.passed).toBe(false);
    expect(card.prompts.every((prompt) => prompt.status === "diverged" && prompt.agreement === 0)).toBe(true);
  });

  it("special-casing by prompt id: nothing names the prompt, so the engine finds nothing and is not faster", async () => {
    const { card, dir } = await playRound([...BASELINE, "--cheat-prompt-id-speedup", "4"], { chunkLog: true });
    expect(card.gate.passed).toBe(false);
    expect(card.roundScore).toBeGreaterThan(0.7);
    expect(card.roundScore).toBeLessThan(1.3);
    const requests = await readCandidateRequests(dir);
    // Four warm-up requests, then the six scored: none named its prompt, in a header or a field.
    expect(requests).toHaveLength(4 + PROMPT_IDS.length);
    expect(requests.every((request) => request.promptIdHint === null)).toBe(true);
    // The engine still knew each scored prompt by its content (its prompts file), as any engine can;
    // the warm-ups carry none of the prompts' text.
    expect(requests.slice(0, 4).map((request) => request.promptId)).toEqual([null, null, null, null]);
    expect(new Set(requests.slice(4).map((request) => request.promptId))).toEqual(new Set(PROMPT_IDS));
  });

  it(
    "an answer cache (a request seen before comes back 50× faster), warmed on every prompt: no scored prompt was seen before, so no " +
      "faster",
    async () => {
      const { card, dir } = await playRound([...BASELINE, "--cheat-answer-cache-speedup", "50"], {
        chunkLog: true,
        warmupRequests: 2 * PROMPT_IDS.length,
      });
      expect(card.gate.passed).toBe(false);
      expect(card.roundScore).toBeGreaterThan(0.7);
      expect(card.roundScore).toBeLessThan(1.3);
      const requests = await readCandidateRequests(dir);
      const scored = requests.slice(2 * PROMPT_IDS.length);
      expect(new Set(scored.map((request) => request.promptId))).toEqual(new Set(PROMPT_IDS));
      expect(scored.filter((request) => request.answeredBefore)).toEqual([]);
    },
  );

  it(
    "a late divergence (floating-point drift after 20 tokens) of an honest 2× candidate on every prompt still scores; the gate leaves " +
      "it to the maintainers",
    async () => {
      const { card, markdown } = await playRound([...TWICE_AS_FAST, "--diverge-after-tokens", "20"]);
      expect(card.promptsScored).toBe(PROMPT_IDS.length);
      expect(card.roundScore).toBeGreaterThan(1.5);
      expect(card.medianAgreement).toBeCloseTo(20 / 24, 10);
      // Timed at the full 24 tokens, and no faster than over the 20 both answers share: still about 2×.
      expect(card.prompts[0]).toMatchObject({ status: "scored", agreedTokens: 20, comparedTokens: 24 });
      expect(markdown).toContain("agreement 83.3%: the answers part after 20 tokens; timed only over those, and none the baseline gave");
      // Every answer changed: by default that is not a green check (a filler cheat parts every answer the same way)...
      expect(card.gate.passed).toBe(false);
      expect(card.gate.reasons).toEqual([
        "median agreement 83.3% < gate.minAgreement 100%: most answers are not the baseline's over the compared length",
        "6 of 6 answers (100%) are none the baseline gave (parted or stopped, timed to there: p1, p2, p3, p4, p5; 1 more), with one " +
          "run the baseline's own answers show nothing of its variation, and above gate.maxUnexplained 0%",
      ]);
      // ...but a repository that accepts the numerics change says so, and the app's re-gate passes it.
      expect(
        regateScorecard(
          card,
          { minRoundScore: 1.35, maxUnscored: 0.1, minPrompts: PROMPT_IDS.length, minAgreement: 0.8, maxUnexplained: 1 },
          null,
        ).gate.passed,
      ).toBe(true);
    },
  );

  it("the baseline's first 16 tokens, then filler ten times as fast: diverged, agreeing on no more than half the answer", async () => {
    const long = ["--output-tokens", "64"];
    const { dir, configPath } = await writeCliRound({
      baseline: { command: simCommand(...BASELINE, ...long) },
      candidate: { command: simCommand(...BASELINE, ...long, "--cheat-filler-after-tokens", "16") },
      bench: { maxTokens: 64, requestIntervalMs: 30, warmupRequests: 4, ...withTokenizer },
      gate: { minRoundScore: 1.5 },
    });
    const { card } = await runSimRound(configPath, dir);
    // Timed on its filler it would score about 3×.
    expect(card?.gate.passed).toBe(false);
    expect(card?.roundScore).toBe(0);
    expect(
      card?.prompts.every((prompt) => prompt.status === "diverged" && prompt.comparedTokens === 64 && prompt.agreedTokens === 16),
    ).toBe(true);
    expect(card?.prompts[0]?.reason).toMatch(
      /^answers part at token 17 of 64: they agree on 25% of it, no more than bench.minPromptAgreement 50%: baseline /,
    );
  });
});
