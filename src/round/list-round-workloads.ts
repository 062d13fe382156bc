import type { RoundFingerprint } from "../config/fingerprint-round.js";
import type { LoadedRound } from "../config/load-round-config.js";
import type { RoundConfig } from "../config/round-config-schema.js";
import type { Prompt } from "../prompts/prompt.js";

/** One workload a round benchmarks on each engine start: a scenario, or bench itself in a round without scenarios. */
export interface RoundWorkload {
  /** The scenario's name; null for a round without scenarios. */
  name: string | null;
  config: RoundConfig;
  prompts: Prompt[];
  /** The scenario's prompts file as the config writes it, for its card; absent for synthetic prompts and a round without scenarios. */
  promptsSource?: string;
  /** The scenario's own fingerprint; absent for a round without scenarios (the round's is used). */
  fingerprint?: RoundFingerprint;
}

/**
 * The round's workloads in config order. A round without scenarios is one workload, so running it
 * and running scenarios are one code path.
 */
export function listRoundWorkloads(round: LoadedRound): RoundWorkload[] {
  if (!round.scenarios) return [{ name: null, config: round.config, prompts: round.prompts }];
  return round.scenarios.map((scenario) => ({
    name: scenario.name,
    config: scenario.config,
    prompts: scenario.prompts,
    ...(scenario.promptsSource !== undefined ? { promptsSource: scenario.promptsSource } : {}),
    fingerprint: scenario.fingerprint,
  }));
}
