import { describe, expect, it } from "vitest";
import { buildSyntheticPrompts } from "../../src/config/build-synthetic-prompts.js";
import { createRecordingLogger } from "../../src/logger.js";
import { runRound } from "../../src/round/run-round.js";
import { renderMarkdown } from "../../src/scorecard/render/render-markdown.js";
import { readTokenizerFile } from "../../src/tokens/read-tokenizer-file.js";
import { getFreePort } from "../support/get-free-port.js";
import { llamaCppTestContext } from "../support/llama-cpp/llama-cpp-test-context.js";
import { QWEN3_TOKENIZER, llamaServerCommand, makeLlamaCppRound } from "../../harness/llama-cpp/make-llama-cpp-round.js";
import { makeTempDir } from "../support/make-temp-dir.js";

/*
 * Synthetic prompts against llama.cpp's real server (../shared/engines/llama-cpp): its tiny model
 * ends about half of its answers early with <|im_end|>, so answers of exactly outputTokens from
 * every request show that it honoured ignore_eos (and n_predict). A tiny round: three prompts of 32
 * tokens, 64 tokens each, two in flight.
 */

const context = llamaCppTestContext();
/*
 * Without ignore_eos the model answers these three prompts (one at a time) in 53, 11 and 64 of 64
 * tokens: at 16 tokens none of its answers ends early, and the test would not tell.
 */
const SYNTHETIC = { inputTokens: 32, outputTokens: 64, count: 3, seed: 2 };

describe.skipIf(!context)("synthetic prompts on llama.cpp's server (real engine)", () => {
  const { server, model } = context ?? { server: "", model: "" };

  it("gets answers of exactly outputTokens, by the engine's count and by speedgate's, and the card says the length held", async () => {
    const dir = await makeTempDir("speedgate-llama-synthetic-");
    const round = makeLlamaCppRound({
      runtime: "process",
      port: await getFreePort(),
      dir,
      baseline: { command: llamaServerCommand(server, model, ["-np", "2"]) },
      bench: {
        prompts: { synthetic: SYNTHETIC },
        tokenizer: { path: QWEN3_TOKENIZER, from: "runner" },
        requestIntervalMs: undefined,
        concurrency: 2,
        maxTokens: 64,
      },
    });
    const counter = await readTokenizerFile(QWEN3_TOKENIZER);
    // As loadRound builds them: the round's tokenizer, the config's seed.
    const prompts = buildSyntheticPrompts(SYNTHETIC, counter);
    for (const prompt of prompts) expect(counter.count(prompt.prompt ?? "").ids).toHaveLength(32);
    const card = await runRound({
      round: { ...round, prompts, tokenCounter: counter },
      logger: createRecordingLogger(),
      signal: new AbortController().signal,
      runId: `llama-synthetic-${Date.now().toString(36)}`,
    });
    expect(card.failure).toBeNull();
    // The slots the baseline serves, from its command (the harness's -np 1, then this test's -np 2: the engine takes the last),
    // which is what tells a closed loop beyond them to be queue-bound.
    expect(card.settings.engineSlots).toEqual({ slots: 2, setting: "-np 2" });
    for (const prompt of card.prompts) {
      for (const run of prompt.runs) {
        expect(run.baselineTokens).toBe(64);
        expect(run.candidateTokens).toBe(64);
      }
      // The engine's own count agrees: no end-of-sequence token was generated (usage would count it).
      expect(prompt.baseline?.claimedTokens).toBe(64);
      expect(prompt.baseline?.finishReason).toBe("length");
    }
    const markdown = renderMarkdown(card);
    expect(markdown).toContain("| concurrency 2 |");
    expect(markdown).toContain("The engines honoured the fixed length: every answer was exactly that long.");
  });
});
