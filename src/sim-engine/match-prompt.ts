import type { Prompt } from "../prompts/prompt.js";
import { promptContentKey } from "../prompts/prompt-content-key.js";

export interface PromptMatcher {
  /** The id of the prompt whose content the request carries; null for content no prompt has. */
  match(body: { messages?: unknown; prompt?: unknown }): string | null;
  /** Ids sharing content with an earlier prompt: requests for them match the first. */
  duplicates: string[];
}

/**
 * Finds a request's prompt by its content, so the profile's per-prompt timings and faults apply
 * without the request naming its prompt (requests never do: an engine told what is measured could
 * special-case it).
 */
export function createPromptMatcher(prompts: readonly Prompt[]): PromptMatcher {
  const byContent = new Map<string, string>();
  const duplicates: string[] = [];
  for (const prompt of prompts) {
    const key = promptContentKey(prompt.messages ? { messages: prompt.messages } : { prompt: prompt.prompt ?? "" });
    if (key === null) continue;
    if (byContent.has(key)) duplicates.push(prompt.id);
    else byContent.set(key, prompt.id);
  }
  return { match: (body) => byContent.get(promptContentKey(body) ?? "") ?? null, duplicates };
}
