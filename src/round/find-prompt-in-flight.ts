import type { Prompt } from "../prompts/prompt.js";
import type { RequestRecord } from "../scoring/request-record.js";
import type { FailedPrompt } from "../vocabulary/engine-failure.js";

/**
 * The prompt an engine that died mid-benchmark was serving: the first, in the order they were sent,
 * that it did not answer (requests overlap, so later ones may have been in flight too). Null when it
 * answered them all and died after.
 */
export function findPromptInFlight(prompts: readonly Prompt[], records: ReadonlyMap<string, RequestRecord>): FailedPrompt | null {
  const index = prompts.findIndex((prompt) => records.get(prompt.id)?.ok !== true);
  const prompt = prompts[index];
  return prompt ? { number: index + 1, id: prompt.id } : null;
}
