import type { z } from "zod";
import type { BenchSettings } from "./bench-settings-schema.js";
import type { RoundRuntime } from "./engine-settings-schema.js";
import type { RoundGateSettings } from "./gate-settings-schema.js";
import { mergeScenarioConfig } from "./merge-scenario-config.js";
import { refineAnswerLength } from "./refine-answer-length.js";
import { refineSyntheticPrompts } from "./refine-synthetic-prompts.js";
import type { ScenarioSettings } from "./scenario-settings-schema.js";

/** The parsed config's fields the scenarios are checked against. */
interface ScenarioRound {
  runtime: RoundRuntime;
  bench: BenchSettings;
  gate: RoundGateSettings;
  scenarios?: ScenarioSettings[] | undefined;
}

/** Each scenario's merged settings must hold what bench's do; every problem names the scenario's field. */
export function refineScenarios(config: ScenarioRound, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  config.scenarios?.forEach((scenario, index) => {
    const at = ["scenarios", index] as const;
    if (seen.has(scenario.name)) {
      ctx.addIssue({
        code: "custom",
        path: [...at, "name"],
        message: `expected distinct scenario names, but ${JSON.stringify(scenario.name)} is already used`,
      });
    }
    seen.add(scenario.name);
    if (scenario.concurrency !== undefined) {
      for (const field of ["requestIntervalMs", "arrival"] as const) {
        if (scenario[field] === undefined) continue;
        ctx.addIssue({
          code: "custom",
          path: [...at, field],
          message: `expected either concurrency (a closed loop) or ${field} (an open loop) in one scenario, not both; remove one`,
        });
      }
    } else if (scenario.requestIntervalMs === undefined && scenario.arrival !== undefined && config.bench.concurrency !== null) {
      ctx.addIssue({
        code: "custom",
        path: [...at, "requestIntervalMs"],
        message:
          "expected a number of milliseconds, 0 or more, with arrival: bench is a closed loop (bench.concurrency), so it has no " +
          "interval to inherit",
      });
    }
    const merged = mergeScenarioConfig(config, scenario);
    if (scenario.maxTokens !== undefined) refineAnswerLength(merged.bench, ctx, at);
    if (scenario.prompts !== undefined) refineSyntheticPrompts(scenario.prompts, merged, ctx, at);
    if (scenario.gate?.use === "noise-floor" && !merged.gate.calibration) {
      ctx.addIssue({
        code: "custom",
        path: [...at, "gate", "use"],
        message:
          "expected the calibration file gate.use: noise-floor gates on, in the round's gate.calibration (write one with speedgate " +
          "calibrate)",
      });
    }
  });
}
