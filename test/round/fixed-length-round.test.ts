import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSyntheticPrompts } from "../../src/config/build-synthetic-prompts.js";
import { readTokenizerFile } from "../../src/tokens/read-tokenizer-file.js";
import { TEST_TOKENIZER_PATH } from "../../harness/fixtures/tokenizer/generate-tokenizer.js";
import { runSimRound, simCommand, writeCliRound } from "../cli/support/sim-round.js";

/*
 * Synthetic prompts of exact lengths through `speedgate run` against the reference engine, in a
 * closed loop: every answer is the asked length although the engine's own answers are shorter
 * (it honours ignore_eos), and a candidate that ends answers early anyway is named on the card.
 */

const TOKENIZER = ["--tokenizer", TEST_TOKENIZER_PATH];
/** The engine's own answers are 20 tokens: a fixed length of 24 is only reached by running past them. */
const SYNTHETIC = { synthetic: { inputTokens: 12, outputTokens: 24, count: 3, seed: 5 } };
const BENCH = {
  prompts: SYNTHETIC,
  tokenizer: { path: TEST_TOKENIZER_PATH, from: "runner" as const },
  maxTokens: 64,
  requestIntervalMs: undefined,
  concurrency: 2,
};

async function playRound(candidateFlags: string[]) {
  const { dir, configPath } = await writeCliRound({
    baseline: { command: simCommand(...TOKENIZER) },
    candidate: { command: simCommand(...TOKENIZER, ...candidateFlags) },
    bench: BENCH,
    gate: { minPrompts: 3 },
  });
  // The engines' prompts file (for per-prompt faults) holds the round's synthetic prompts, made as the round makes them.
  const prompts = buildSyntheticPrompts(SYNTHETIC.synthetic, await readTokenizerFile(TEST_TOKENIZER_PATH));
  await writeFile(join(dir, "prompts.jsonl"), prompts.map((prompt) => JSON.stringify(prompt)).join("\n"));
  const { card, out, code } = await runSimRound(configPath, dir);
  if (!card) throw new Error(`no card (exit ${code})`);
  return { card, markdown: await readFile(join(out, "scorecard.md"), "utf8") };
}

describe("a round on synthetic prompts of exact lengths (reference engine)", () => {
  it(
    "gets answers of exactly outputTokens from both engines, and the " + "card says the prompts were synthetic and the length held",
    async () => {
      const { card, markdown } = await playRound([]);
      expect(card.failure).toBeNull();
      expect(card.settings.concurrency).toBe(2);
      expect(card.prompts.map((prompt) => prompt.id)).toEqual(["synthetic-1", "synthetic-2", "synthetic-3"]);
      for (const prompt of card.prompts) {
        for (const run of prompt.runs) {
          expect(run.baselineTokens).toBe(24);
          expect(run.candidateTokens).toBe(24);
        }
        expect(prompt.baseline?.finishReason).toBe("length");
      }
      expect(markdown).toContain("| concurrency 2 |");
      expect(markdown).toContain("Prompts: 3 synthetic prompts of exactly 12 tokens each by the round's tokenizer (seed 5)");
      expect(markdown).toContain("The engines honoured the fixed length: every answer was exactly that long.");
    },
  );

  it("names a candidate that ends answers before the fixed length despite ignore_eos", async () => {
    // The reference engine's stop-early fault ends the answer whatever the request asked.
    const { markdown } = await playRound(["--stop-early", "synthetic-2"]);
    expect(markdown).toContain("The fixed length was not honoured throughout");
  });
});
