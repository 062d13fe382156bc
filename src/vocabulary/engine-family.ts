/*
 * The engines speedgate knows by name. `engine` in the round config is free text for the card, but
 * when it names one of these, failures are diagnosed and hinted in that engine's own words and flags.
 */

export const ENGINE_FAMILIES = ["sglang", "vllm", "llama.cpp"] as const;
export type EngineFamily = (typeof ENGINE_FAMILIES)[number];

/** What users type for each engine, lower-cased, with separators removed: "llama-cpp", "LlamaCpp", "llama_cpp", "llama-server". */
const ALIASES: ReadonlyArray<{ family: EngineFamily; names: readonly string[] }> = [
  { family: "sglang", names: ["sglang"] },
  { family: "vllm", names: ["vllm"] },
  { family: "llama.cpp", names: ["llamacpp", "llamaserver", "llamacppserver"] },
];

const squash = (word: string): string => word.toLowerCase().replace(/[-_. ]+/g, "");

/**
 * The engine family a config's `engine` names, from its first word ("sglang @fork" is SGLang) or a
 * known name inside it ("SGLang-fork"), or null for an engine speedgate has no knowledge of (its
 * failures get hints for every engine).
 */
export function engineFamily(name: string): EngineFamily | null {
  const whole = squash(name);
  const first = squash(name.trim().split(/\s+/)[0] ?? "");
  for (const { family, names } of ALIASES) if (names.includes(whole) || names.includes(first)) return family;
  // A fork under a name of its own that still says whose it is ("SGLang-fork", "my-vLLM").
  for (const { family, names } of ALIASES) if (names.some((alias) => whole.includes(alias))) return family;
  return null;
}

/**
 * The config's `engine` as the card shows it: a known engine's alias becomes its one name ("llama-cpp" → "llama.cpp"); anything else is
 * kept.
 */
export function canonicalEngineName(name: string): string {
  const family = engineFamily(name);
  return family !== null && ALIASES.some(({ names }) => names.includes(squash(name))) ? family : name;
}
