import { z } from "zod";
import { benchSchema } from "./bench-settings-schema.js";
import { integerIn, nonEmptyString } from "./config-field-kinds.js";
import { buildSchema, dockerSchema } from "./docker-settings-schema.js";
import { baselineSchema, candidateSchema, healthSchema, runtimeSchema } from "./engine-settings-schema.js";
import { gateSchema } from "./gate-settings-schema.js";
import { qualitySchema } from "./quality-settings-schema.js";
import { refineBenchPrompts } from "./refine-bench-prompts.js";
import { refineRoundConfig } from "./refine-round-config.js";
import { scenariosSchema } from "./scenario-settings-schema.js";
import { sourceSchema } from "./source-settings-schema.js";
import { watchSchema } from "./watch-settings-schema.js";
import { canonicalEngineName } from "../vocabulary/engine-family.js";

/*
 * The round config: each section's fields in its own schema file (engine, bench, gate, scenarios,
 * docker, source), the rules between fields in refine-round-config.ts. The sections keep their order:
 * the config's fingerprint is its parsed JSON.
 */
export const roundConfigSchema = z
  .strictObject(
    {
      // A known engine's other spellings (llama-cpp, LlamaCpp, vLLM) become its one name, so calibrations and cards agree.
      engine: nonEmptyString("expected the engine's name for the card, such as sglang, vllm or llama.cpp").transform(canonicalEngineName),
      runtime: runtimeSchema,
      port: integerIn(1, 65_535, "expected a TCP port from 1 to 65535"),
      health: healthSchema.default({ path: "/health", timeoutS: 1200, intervalMs: 500 }),
      baseline: baselineSchema,
      candidate: candidateSchema.default({ postPatch: [], trusted: false }),
      bench: benchSchema,
      gate: gateSchema,
      docker: dockerSchema.prefault({}),
      build: buildSchema.prefault({}),
      source: sourceSchema.prefault({}),
      // Absent: the round is the one workload bench describes, as before scenarios existed (same fingerprint).
      scenarios: scenariosSchema.optional(),
      // Watching main (speedgate watch, bisect, the action's mode: watch); absent: the defaults. Not part of the fingerprint.
      watch: watchSchema.optional(),
      // Absent: the round judges no quality, and hashes as it did before quality existed.
      quality: qualitySchema.optional(),
    },
    { error: "expected a YAML mapping with engine, runtime, port, baseline, candidate, bench and gate" },
  )
  .superRefine(refineRoundConfig)
  // Runs even when other fields are wrong (when: always), which is why it reads the input as unknown.
  .superRefine(refineBenchPrompts, { when: () => true });

export type RoundConfig = z.infer<typeof roundConfigSchema>;
