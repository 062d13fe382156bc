import type { Prompt } from "../prompts/prompt.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import { buildSyntheticPrompts } from "./build-synthetic-prompts.js";
import { type RoundFingerprint, fingerprintRound } from "./fingerprint-round.js";
import { readPromptsFile } from "./read-prompts-file.js";
import type { RoundConfig } from "./round-config-schema.js";
import { mergeScenarioConfig } from "./merge-scenario-config.js";

/** One scenario of a loaded round: what it is benchmarked and gated with, and the prompts it sends. */
export interface LoadedScenario {
  name: string;
  /** The round's config with the scenario's bench and gate fields merged in (mergeScenarioConfig). */
  config: RoundConfig;
  prompts: Prompt[];
  /**
   * The prompts file the scenario sends (its own, or bench.prompts it inherits) as the config writes
   * it, for its card to name; absent for synthetic prompts, which the card describes by their shape.
   */
  promptsSource?: string;
  /** The round's configHash, and the hash of this scenario's own prompts. */
  fingerprint: RoundFingerprint;
}

export interface LoadRoundScenariosInput {
  /** The round's config, its paths resolved. */
  config: RoundConfig;
  /** The same config with its paths as written, relative to the config's folder: what a card names. */
  written: Pick<RoundConfig, "bench" | "scenarios">;
  configDir: string;
  /** bench.prompts as loaded: a scenario that names no prompts of its own sends these. */
  benchPrompts: Prompt[];
  /** The tokenizer on the runner, which synthetic prompts are built with; null when there is none here. */
  tokenCounter: TokenCounter | null;
  /** Whether a config path was found missing (a check on a machine without the runner's files). */
  absent: (field: string) => boolean;
}

/**
 * Every scenario's prompts, read or built once per distinct source, so two scenarios on one prompt
 * set send the very same prompts (and hash alike).
 */
export async function loadRoundScenarios(input: LoadRoundScenariosInput): Promise<LoadedScenario[]> {
  const { config } = input;
  const loaded = new Map<string, Prompt[]>();
  const scenarios: LoadedScenario[] = [];
  for (const [index, scenario] of (config.scenarios ?? []).entries()) {
    const merged = mergeScenarioConfig(config, scenario);
    const source = scenario.prompts;
    let prompts = input.benchPrompts;
    if (source !== undefined) {
      const key = JSON.stringify(source);
      const known = loaded.get(key);
      if (known) prompts = known;
      else {
        const field = `scenarios[${index}].prompts`;
        // The schema holds synthetic prompts to a tokenizer on the runner: it is here unless a check found it missing.
        if (typeof source === "object")
          prompts = input.tokenCounter ? buildSyntheticPrompts(source.synthetic, input.tokenCounter, `${field}.synthetic`) : [];
        else prompts = input.absent(field) ? [] : await readPromptsFile(source, config.bench.contextLimit, field);
        loaded.set(key, prompts);
      }
    }
    const writtenSource = input.written.scenarios?.[index]?.prompts ?? input.written.bench.prompts;
    scenarios.push({
      name: scenario.name,
      config: merged,
      prompts,
      ...(typeof writtenSource === "string" ? { promptsSource: writtenSource } : {}),
      fingerprint: fingerprintRound(config, input.configDir, prompts),
    });
  }
  return scenarios;
}
