import type { z } from "zod";
import type { BenchSettings } from "./bench-settings-schema.js";
import type { RoundGateSettings } from "./gate-settings-schema.js";
import type { QualitySettings } from "./quality-settings-schema.js";
import type { ScenarioSettings } from "./scenario-settings-schema.js";

/**
 * gate.answers: quality hands changed answers to the question set, so it needs one (quality:), in the
 * round's gate or any scenario's; and a question's answer must fit the context it is written in.
 */
export function refineQuality(
  config: {
    bench: BenchSettings;
    gate: RoundGateSettings;
    quality?: QualitySettings | undefined;
    scenarios?: ScenarioSettings[] | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const needs =
    "expected quality: in the round config (a question set both engines answer) with gate.answers: quality, which judges changed " +
    "answers by it; add quality: { questions: … } or leave gate.answers out";
  if (!config.quality) {
    if (config.gate.answers === "quality") ctx.addIssue({ code: "custom", path: ["gate", "answers"], message: needs });
    config.scenarios?.forEach((scenario, index) => {
      if (scenario.gate?.answers === "quality")
        ctx.addIssue({ code: "custom", path: ["scenarios", index, "gate", "answers"], message: needs });
    });
    return;
  }
  if (config.bench.contextLimit >= 1 && config.quality.maxTokens > config.bench.contextLimit) {
    ctx.addIssue({
      code: "custom",
      path: ["quality", "maxTokens"],
      message:
        `expected at most bench.contextLimit (${config.bench.contextLimit}): an answer cannot be longer than the context it is ` +
        `written in`,
    });
  }
}
