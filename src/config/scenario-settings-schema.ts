import { z } from "zod";
import {
  arrivalSchema,
  concurrencySchema,
  maxTokensSchema,
  promptSourceSchema,
  requestIntervalSchema,
  runsSchema,
  warmupRequestsSchema,
} from "./bench-settings-schema.js";
import { scenarioGateSchema } from "./gate-settings-schema.js";
import { MAX_SCENARIOS, SCENARIO_NAME } from "../vocabulary/scenario-name.js";

const scenarioNameExpectation =
  "expected a name of 1 to 64 letters, digits, spaces or . _ + -, starting with a letter or digit, such as chat-rate4";

/**
 * One workload of the round: the bench settings it changes (everything else is `bench`'s) and a
 * partial gate. Parsed as written; mergeScenarioConfig makes the round config it is benchmarked with.
 */
const scenarioSchema = z.strictObject(
  {
    name: z.string({ error: scenarioNameExpectation }).regex(SCENARIO_NAME, { error: scenarioNameExpectation }),
    prompts: promptSourceSchema.optional(),
    maxTokens: maxTokensSchema.optional(),
    requestIntervalMs: requestIntervalSchema.optional(),
    arrival: arrivalSchema.optional(),
    concurrency: concurrencySchema.optional(),
    runs: runsSchema.optional(),
    warmupRequests: warmupRequestsSchema.optional(),
    gate: scenarioGateSchema.optional(),
  },
  {
    error:
      "expected an object with name and some of prompts, maxTokens, requestIntervalMs, arrival, concurrency, runs, warmupRequests and gate",
  },
);

export type ScenarioSettings = z.infer<typeof scenarioSchema>;

export const scenariosSchema = z
  .array(scenarioSchema, { error: "expected a list of scenarios, each { name, … }" })
  .min(1, { error: "expected at least one scenario (or no scenarios field)" })
  .max(MAX_SCENARIOS, { error: `expected at most ${MAX_SCENARIOS} scenarios: each costs a benchmark per engine per run` });
