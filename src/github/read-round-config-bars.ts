import { parse } from "yaml";
import { z } from "zod";
import { scenarioGateSchema } from "../config/gate-settings-schema.js";
import { MAX_SCENARIOS, SCENARIO_NAME } from "../scorecard/scorecard-schema.js";
import { formatConfigIssues } from "../vocabulary/format-config-issues.js";

/*
 * The scenario bars of a round config as the repository's default branch has it: what each scenario must
 * show (role, margin, minRoundScore, and the rule that compares, use), its `scenarios[].gate` over the
 * round's `gate`, exactly as the round merges them. Only these fields are read: the rest of the file is
 * the runner's business, and the limits that judge prompts (agreement, unscored, answers) stay the app's
 * own settings' call. The app reads the file itself, so no card can claim another bar.
 */

/** What decides a scenario's bar, beside its rule: the fields a round config and the app's settings share. */
export const BAR_FIELDS = ["role", "margin", "minRoundScore", "use"] as const;
export type ScenarioBar = Pick<z.infer<typeof scenarioGateSchema>, (typeof BAR_FIELDS)[number]>;

/** The bars a round config states, per scenario name; a scenario whose bar the file does not write is absent. */
export interface RoundConfigBars {
  /** The file in the repository, such as `.github/speedgate/round.yaml`. */
  path: string;
  /** Every scenario the file has, in its order: a card must hold each (a pull request cannot drop the one it slows). */
  names: string[];
  scenarios: Record<string, ScenarioBar>;
}

export type RoundConfigBarsResult = { ok: true; bars: RoundConfigBars } | { ok: false; problems: string[] };

const barSchema = scenarioGateSchema.pick({ role: true, margin: true, minRoundScore: true, use: true });

// Loose: every other field of the round config is left to the round, which checks it when it runs.
const roundBarsSchema = z.looseObject(
  {
    gate: z.looseObject(barSchema.pick({ minRoundScore: true, use: true }).shape).optional(),
    scenarios: z
      .array(
        z.looseObject({
          name: z.string({ error: "expected the scenario's name" }).regex(SCENARIO_NAME, { error: "expected a scenario name" }),
          gate: scenarioGateSchema.optional(),
        }),
        { error: "expected a list of scenarios" },
      )
      .max(MAX_SCENARIOS, { error: `expected at most ${MAX_SCENARIOS} scenarios` })
      .optional(),
  },
  { error: "expected a round config: a YAML mapping with engine, baseline, candidate, bench and gate" },
);

// The schema checked each field: what is picked is a ScenarioBar.
function pickBar(gate: Record<string, unknown> | undefined): ScenarioBar {
  const picked = Object.fromEntries(BAR_FIELDS.filter((field) => gate?.[field] !== undefined).map((field) => [field, gate?.[field]]));
  return picked;
}

/** The bars a round config's text states; what is wrong with it, field by field, when it cannot be read. */
export function readRoundConfigBars(text: string, path: string): RoundConfigBarsResult {
  let value: unknown;
  try {
    value = parse(text, { prettyErrors: false, uniqueKeys: true }) as unknown;
  } catch (error) {
    return { ok: false, problems: [`expected valid YAML: ${(error as Error).message.split("\n")[0] ?? ""}`] };
  }
  const parsed = roundBarsSchema.safeParse(value ?? {});
  if (!parsed.success) return { ok: false, problems: formatConfigIssues(parsed.error.issues, value, roundBarsSchema).slice(0, 20) };
  const round = pickBar(parsed.data.gate);
  const scenarios: Record<string, ScenarioBar> = {};
  for (const scenario of parsed.data.scenarios ?? []) {
    const bar = { ...round, ...pickBar(scenario.gate) };
    if (Object.keys(bar).length > 0) scenarios[scenario.name] = bar;
  }
  return { ok: true, bars: { path, names: (parsed.data.scenarios ?? []).map((scenario) => scenario.name), scenarios } };
}
