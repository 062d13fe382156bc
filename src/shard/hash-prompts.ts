import { createHash } from "node:crypto";
import type { Prompt } from "../prompts/prompt.js";

/**
 * The card's promptsHash: the same formula as runRound's provenance (sha256 of the prompts as JSON),
 * applied to the whole prompt set, so a shard's card and an unsharded card of one round agree.
 */
export function hashPrompts(prompts: readonly Prompt[]): string {
  return createHash("sha256").update(JSON.stringify(prompts)).digest("hex");
}
