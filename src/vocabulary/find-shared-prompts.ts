/**
 * Scenarios that send the very same prompts (equal prompt hashes), in groups of two or more, in the
 * round's order. One engine start serves every scenario of a run, so a later scenario of a group
 * meets its prompts already in the engine's prefix cache (SGLang's radix cache, vLLM's prefix caching,
 * llama.cpp's prompt cache): both engines alike, but it then times prefill of cached prompts.
 */
export function findSharedPrompts(scenarios: ReadonlyArray<{ name: string; promptsHash: string | null }>): string[][] {
  const groups = new Map<string, string[]>();
  for (const { name, promptsHash } of scenarios) {
    if (promptsHash === null) continue;
    groups.set(promptsHash, [...(groups.get(promptsHash) ?? []), name]);
  }
  return [...groups.values()].filter((names) => names.length > 1);
}

/** The warning for those groups, for the round plan, the round's log and the card; null when there are none. */
export function describeSharedPrompts(groups: readonly string[][]): string | null {
  if (groups.length === 0) return null;
  const listed = groups.map((names) => `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`).join("; ");
  return (
    `scenarios ${listed} send the same prompts, and one engine start serves them all: after the first, each meets those prompts ` +
    "in the engine's prefix cache (SGLang's radix cache, vLLM's prefix caching, llama.cpp's prompt cache), on both engines alike, " +
    "so its time to first token is that of cached prompts; to measure each cold, give it prompts of its own (another file, or " +
    "synthetic prompts with another seed)"
  );
}
