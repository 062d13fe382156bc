import { describe, expect, it } from "vitest";
import { parseRoundConfig } from "../../../src/config/load-round-config.js";
import { describePromptSource, describeSyntheticPrompts } from "../../../src/scorecard/render/describe-synthetic-prompts.js";
import { renderMarkdown } from "../../../src/scorecard/render/render-markdown.js";
import { renderText } from "../../../src/scorecard/render/render-text.js";
import { MAX_PROMPTS_SOURCE_CHARS, scorecardSchema } from "../../../src/scorecard/scorecard-schema.js";
import { makeCard } from "../../../harness/make-card.js";

/** A round on synthetic prompts of 32 tokens answering exactly 16, in a closed loop of 4. */
const syntheticConfig = parseRoundConfig({
  engine: "sglang",
  runtime: "docker",
  port: 30000,
  baseline: { image: "lmsysorg/sglang:v0.5.5" },
  candidate: { patch: "./submission.patch", sourceDir: "/sgl-workspace/sglang" },
  bench: {
    prompts: { synthetic: { inputTokens: 32, outputTokens: 16, count: 5, seed: 4 } },
    tokenizer: { path: "tokenizer.json", from: "runner" },
    maxTokens: 16,
    concurrency: 4,
    contextLimit: 32768,
    tolerance: 0.9,
    runs: 1,
  },
  gate: { minRoundScore: 1.0 },
});

/** The method section: its fold, from the summary to its end. */
function methodFold(markdown: string): string {
  const start = markdown.indexOf("<details><summary>How the score was measured");
  expect(start).toBeGreaterThanOrEqual(0);
  return markdown.slice(start, markdown.indexOf("</details>", start));
}

describe("a card of synthetic prompts in a closed loop", () => {
  it("keeps both settings and says the prompts were synthetic and that every answer kept the fixed length", () => {
    const card = makeCard(
      [1.2, 1.1, 1.3, 1.25, 1.15].map((speedup) => ({ speedup, tokens: 16 })),
      { config: syntheticConfig },
    );
    expect(card.settings.concurrency).toBe(4);
    expect(card.settings.synthetic).toEqual({ inputTokens: 32, outputTokens: 16, count: 5, seed: 4 });
    const method = methodFold(renderMarkdown(card));
    expect(method).toContain("| Load | Runs |");
    expect(method).toContain("| concurrency 4 | 1 |");
    expect(method).toContain("Prompts: 5 synthetic prompts of exactly 32 tokens each by the round's tokenizer (seed 4)");
    expect(method).toContain(
      "the baseline answered exactly 16 tokens in 5 of 5 answers, the candidate answered exactly 16 tokens in 5 of 5 answers",
    );
    expect(method).toContain("The engines honoured the fixed length: every answer was exactly that long.");
    expect(renderText(card)).toContain("Settings: concurrency 4, runs 1");
  });

  it("says when an engine ended answers before the fixed length despite ignore_eos", () => {
    const card = makeCard(
      [
        { speedup: 1.2, tokens: 16 },
        { candidateTokens: 10, tokens: 16 },
        { speedup: 1.1, tokens: 16 },
      ],
      { config: syntheticConfig },
    );
    const sentence = describeSyntheticPrompts(card);
    expect(sentence).toContain("the candidate answered exactly 16 tokens in 2 of 3 answers");
    expect(sentence).toContain("The fixed length was not honoured throughout: an engine ended answers early despite ignore_eos");
  });

  it("speaks of one token as one, for a prompt-processing round answering a single token", () => {
    const card = makeCard(
      [1.2, 1.1, 1.3].map((speedup) => ({ speedup, tokens: 1 })),
      { config: syntheticConfig },
    );
    const oneToken = { ...card, settings: { ...card.settings, synthetic: { inputTokens: 512, outputTokens: 1, count: 3, seed: 1 } } };
    const sentence = describeSyntheticPrompts(oneToken);
    expect(sentence).toContain("each asking for exactly 1 token with the engine's ignore_eos");
    expect(sentence).toContain("the baseline answered exactly 1 token in 3 of 3 answers");
    expect(describePromptSource(oneToken)).toBe("3 synthetic, 512→1 tokens");
    // Nothing to time after the first token: the speed line says decode was not measured rather than not comparable.
    expect(renderText(oneToken)).toContain("Decode: not measured (no answer compared beyond its first token)");
    expect(describePromptSource(makeCard([{ speedup: 1.2 }, { speedup: 1.1 }]))).toBe("2 from a prompt file");
  });

  it("says nothing of synthetic prompts or concurrency on a card of a prompt file on a schedule", () => {
    const card = makeCard([{ speedup: 1.2 }]);
    expect(card.settings).not.toHaveProperty("concurrency");
    expect(card.settings).not.toHaveProperty("synthetic");
    expect(describeSyntheticPrompts(card)).toBe("");
    const method = methodFold(renderMarkdown(card));
    expect(method).toContain("| Request interval | Runs |");
    expect(method).not.toContain("synthetic");
  });

  it("names a scenario's prompts file as its config writes it, without the control characters a forged card could carry", () => {
    expect(describePromptSource(makeCard([{ speedup: 1.2 }, { speedup: 1.1 }], { promptsSource: "prompts/chat.jsonl" }))).toBe(
      "2 from prompts/chat.jsonl",
    );
    const forged = makeCard([{ speedup: 1.2 }], { promptsSource: "\u001b[31mchat\u0007.jsonl" });
    expect(describePromptSource(forged)).toBe("1 from chat.jsonl");
    // Synthetic prompts say what they are; a file name would add nothing.
    const synthetic = makeCard([{ speedup: 1.2 }], { config: syntheticConfig });
    expect(describePromptSource({ ...synthetic, settings: { ...synthetic.settings, promptsSource: "unused.jsonl" } })).toMatch(/synthetic/);
  });

  it("keeps the end of a prompts file path past the card's bound, and the card's schema holds that bound", () => {
    const long = `${"deep/".repeat(60)}prompts/chat.jsonl`;
    const card = makeCard([{ speedup: 1.2 }], { promptsSource: long });
    const kept = card.settings.promptsSource ?? "";
    expect(kept).toHaveLength(MAX_PROMPTS_SOURCE_CHARS);
    expect(kept.startsWith("…")).toBe(true);
    expect(long.endsWith(kept.slice(1))).toBe(true);
    expect(scorecardSchema.parse(card)).toEqual(card);
    const withSource = (promptsSource: string): unknown => ({ ...card, settings: { ...card.settings, promptsSource } });
    expect(scorecardSchema.safeParse(withSource(long)).success).toBe(false);
    expect(scorecardSchema.safeParse(withSource("")).success).toBe(false);
    expect(makeCard([{ speedup: 1.2 }]).settings).not.toHaveProperty("promptsSource");
  });
});
