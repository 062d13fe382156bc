import type { z } from "zod";
import type { BenchSettings } from "./bench-settings-schema.js";
import type { DockerSettings } from "./docker-settings-schema.js";
import type { BaselineSettings, CandidateSettings, RoundRuntime } from "./engine-settings-schema.js";
import { findUnknownPlaceholders } from "./find-unknown-placeholders.js";
import type { RoundGateSettings } from "./gate-settings-schema.js";
import { refineAnswerLength } from "./refine-answer-length.js";
import type { QualitySettings } from "./quality-settings-schema.js";
import { refineQuality } from "./refine-quality.js";
import { refineRuntimePaths } from "./refine-runtime-paths.js";
import { refineScenarios } from "./refine-scenarios.js";
import { refineSyntheticPrompts } from "./refine-synthetic-prompts.js";
import type { ScenarioSettings } from "./scenario-settings-schema.js";
import { tokenizerLocation } from "./tokenizer-location.js";

/** A round config whose every field parsed: what the rules between its fields read. */
interface ParsedSections {
  runtime: RoundRuntime;
  baseline: BaselineSettings;
  candidate: CandidateSettings;
  bench: BenchSettings;
  gate: RoundGateSettings;
  docker: DockerSettings;
  scenarios?: ScenarioSettings[] | undefined;
  quality?: QualitySettings | undefined;
}

/** The rules between fields: what each runtime needs, what fits the context, and each scenario's merged settings. */
export function refineRoundConfig(config: ParsedSections, ctx: z.RefinementCtx): void {
  if (config.runtime === "process" && !config.baseline.command) {
    ctx.addIssue({
      code: "custom",
      path: ["baseline", "command"],
      message: "expected the command that starts the engine (runtime: process runs it on the host)",
    });
  }
  if (config.runtime === "docker" && !config.baseline.image && !config.baseline.build) {
    ctx.addIssue({
      code: "custom",
      path: ["baseline", "image"],
      message: "expected an image reference or baseline.build (runtime: docker)",
    });
  }
  if (config.candidate.patch && config.runtime === "process" && !config.candidate.sourceDir) {
    ctx.addIssue({
      code: "custom",
      path: ["candidate", "sourceDir"],
      message: "expected the folder the patch applies in (a copy of it is patched)",
    });
  }
  for (const role of ["baseline", "candidate"] as const) {
    const command = config[role].command;
    if (!command) continue;
    for (const { index, problem } of findUnknownPlaceholders(command, config.runtime))
      ctx.addIssue({ code: "custom", path: [role, "command", index], message: problem });
  }
  refineRuntimePaths(config, ctx);
  // Only between two valid limits: a wrong contextLimit has its own message.
  if (config.bench.contextLimit >= 1) refineAnswerLength(config.bench, ctx, ["bench"]);
  refineSyntheticPrompts(config.bench.prompts, config, ctx, ["bench"]);
  refineScenarios(config, ctx);
  refineTokenizerSource(config, ctx);
  refineQuality(config, ctx);
  if (config.gate.use === "noise-floor" && !config.gate.calibration) {
    ctx.addIssue({
      code: "custom",
      path: ["gate", "calibration"],
      message: "expected the calibration file gate.use: noise-floor gates on (write one with speedgate calibrate)",
    });
  }
  if (config.candidate.build && config.candidate.patch) {
    ctx.addIssue({
      code: "custom",
      path: ["candidate", "build"],
      message: "expected either candidate.build (a full build) or candidate.patch (an overlay), not both",
    });
  }
}

/** A tokenizer in the image needs an image, and a path that means something inside it. */
function refineTokenizerSource(config: Pick<ParsedSections, "bench" | "runtime">, ctx: z.RefinementCtx): void {
  const tokenizer = config.bench.tokenizer;
  if (typeof tokenizer === "object" && tokenizer.from === "image" && config.runtime === "process") {
    ctx.addIssue({
      code: "custom",
      path: ["bench", "tokenizer", "from"],
      message: 'expected "runner" with runtime: process (there is no image to read it from)',
    });
  }
  const location = tokenizerLocation(config);
  if (location?.from === "image" && !location.path.startsWith("/")) {
    ctx.addIssue({
      code: "custom",
      path: ["bench", "tokenizer"],
      message:
        "expected an absolute path inside the baseline image, such as /models/m/tokenizer.json (or { path, from: runner } for a " +
        "file on the runner)",
    });
  }
}
