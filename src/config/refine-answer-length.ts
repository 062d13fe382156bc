import type { z } from "zod";
import type { BenchSettings } from "./bench-settings-schema.js";

/**
 * maxTokens must fit bench.contextLimit: the engine refuses such a request (or truncates it), so every
 * prompt would fail or be cut alike. `at` is where maxTokens was written: bench, or a scenario.
 */
export function refineAnswerLength(
  bench: Pick<BenchSettings, "maxTokens" | "contextLimit">,
  ctx: z.RefinementCtx,
  at: ReadonlyArray<string | number>,
): void {
  if (bench.maxTokens <= bench.contextLimit) return;
  ctx.addIssue({
    code: "custom",
    path: [...at, "maxTokens"],
    message: `expected at most bench.contextLimit (${bench.contextLimit}): an answer cannot be longer than the context it is written in`,
  });
}
