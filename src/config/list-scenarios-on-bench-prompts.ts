/**
 * The scenarios that send bench.prompts: those that name no prompts of their own, in config order.
 * None: bench.prompts goes unused, so the round may leave it out and never reads it. (Structural,
 * not ScenarioSettings: the schema's own refinement calls it.)
 */
export function listScenariosOnBenchPrompts(scenarios: ReadonlyArray<{ name: string; prompts?: unknown }>): string[] {
  return scenarios.filter((scenario) => scenario.prompts === undefined).map((scenario) => scenario.name);
}
