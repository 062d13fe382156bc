import { listScenariosOnBenchPrompts } from "./list-scenarios-on-bench-prompts.js";
import type { RoundConfig } from "./round-config-schema.js";

/**
 * Whether anything sends bench.prompts: the round itself without scenarios, or a scenario that names
 * no prompts of its own. When nothing does, bench.prompts may be left out and is never read.
 */
export function sendsBenchPrompts(config: Pick<RoundConfig, "scenarios">): boolean {
  return !config.scenarios || listScenariosOnBenchPrompts(config.scenarios).length > 0;
}
