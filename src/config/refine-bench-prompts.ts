import type { z } from "zod";
import { PROMPT_SOURCE_EXPECTATION } from "./bench-settings-schema.js";
import { listScenariosOnBenchPrompts } from "./list-scenarios-on-bench-prompts.js";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/*
 * bench.prompts is the whole round's prompts without scenarios, and what a scenario without prompts
 * of its own sends: it may be left out only when every scenario names its own. Read from the config
 * as given, so a missing bench.prompts is reported beside any other field's problem.
 */
export function refineBenchPrompts(input: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(input) || !isRecord(input.bench) || input.bench.prompts !== undefined) return;
  const expected = PROMPT_SOURCE_EXPECTATION;
  if (!Array.isArray(input.scenarios)) {
    ctx.addIssue({ code: "custom", path: ["bench", "prompts"], message: expected });
    return;
  }
  // A scenario that is not even an object has its own error; one without a name is named by its place.
  const named = input.scenarios.flatMap((scenario: unknown, index) =>
    isRecord(scenario)
      ? [{ name: typeof scenario.name === "string" ? scenario.name : `at scenarios[${index}]`, prompts: scenario.prompts }]
      : [],
  );
  const needing = listScenariosOnBenchPrompts(named);
  if (needing.length === 0) return;
  const which = needing.length === 1 ? `scenario ${needing[0]}` : `scenarios ${needing.slice(0, -1).join(", ")} and ${needing.at(-1)}`;
  ctx.addIssue({
    code: "custom",
    path: ["bench", "prompts"],
    message:
      needing.length === 1
        ? `${expected}, since ${which} sets no prompts of its own (or give it prompts)`
        : `${expected}, since ${which} set no prompts of their own (or give each of them prompts)`,
  });
}
