import type { z } from "zod";
import type { BenchSettings } from "./bench-settings-schema.js";
import type { RoundRuntime } from "./engine-settings-schema.js";
import { tokenizerLocation } from "./tokenizer-location.js";

/*
 * Synthetic prompts are made with the round's tokenizer when the round is loaded, before any image
 * exists, so the tokenizer must be a file on the runner; and a prompt and its fixed answer must fit
 * the context together. `at` is where the prompts were written: bench, or a scenario.
 */
export function refineSyntheticPrompts(
  prompts: BenchSettings["prompts"],
  config: { bench: BenchSettings; runtime: RoundRuntime },
  ctx: z.RefinementCtx,
  at: ReadonlyArray<string | number>,
): void {
  if (prompts === undefined || typeof prompts === "string") return;
  const { inputTokens, outputTokens } = prompts.synthetic;
  if (tokenizerLocation(config)?.from !== "runner") {
    const inBench = at[0] === "bench";
    ctx.addIssue({
      code: "custom",
      path: inBench ? ["bench", "tokenizer"] : [...at, "prompts"],
      message:
        `expected the model's tokenizer.json on the runner (${inBench ? "" : "bench.tokenizer: "}{ path, from: runner }) with ` +
        `${inBench ? "bench.prompts.synthetic" : "synthetic prompts"}: the prompts are built to an exact token length with it when the ` +
        `round is loaded`,
    });
  }
  if (inputTokens + outputTokens > config.bench.contextLimit) {
    ctx.addIssue({
      code: "custom",
      path: [...at, "prompts", "synthetic"],
      message:
        `expected inputTokens + outputTokens (${inputTokens + outputTokens}) at most bench.contextLimit ` +
        `(${config.bench.contextLimit}); lower one of them`,
    });
  }
}
