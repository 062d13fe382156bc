import { formatBar, formatScoreAgainstBar } from "./format-speedup.js";

/*
 * The gate of a round with scenarios, on plain values: what each scenario's own gate said and what its
 * score and interval are. The card's readers (scorecard/read-scenario-gate.ts) take these values from
 * a scenario's card; the rule never sees one.
 */

/** What the rule reads of one scenario. */
export interface ScenarioGateInput {
  name: string;
  /** Whether its own gate (the round's bar with the scenario's overrides) passed, and its one-line reason. */
  ownGate: { passed: boolean; reason: string };
  /** Its round score; null when nothing was scored. */
  score: number | null;
  /** Its 95% interval; null with too few prompts for one, when the score stands at both ends. */
  interval: { low: number; high: number } | null;
}

/** The round's limits over its scenarios. */
export interface ScenarioGateRules {
  /** gate.maxRegression: no scenario's interval may lie wholly below it; null: no such floor. */
  maxRegression: number | null;
}

/**
 * What one scenario showed, read from its interval (or its score, without one):
 * - `improved`: the candidate is faster beyond doubt (the interval lies above 1×);
 * - `regressed`: it is slower beyond doubt (the interval lies below 1×);
 * - `unchanged`: the interval holds 1× (no change the round can tell);
 * - `none`: nothing was scored (an engine failed, or every prompt was left out).
 */
export type ScenarioOutcome = "improved" | "unchanged" | "regressed" | "none";

export interface ScenarioJudgement {
  name: string;
  outcome: ScenarioOutcome;
  /** The scenario passed every rule: its own gate and gate.maxRegression. */
  passed: boolean;
  /** Why it did not pass, named ("decode-c32: …"); null when it did. */
  reason: string | null;
}

export interface CombinedGate {
  passed: boolean;
  /** The verdict in one line: which scenarios passed, improved and regressed. */
  reason: string;
  /** Every failing scenario's reason, named. */
  reasons: string[];
  judgements: ScenarioJudgement[];
}

/** The interval's ends, or the score at both ends when the round had too few prompts for one. */
type ScoreRange = { low: number; high: number } | null;

function scoreRange(scenario: ScenarioGateInput): ScoreRange {
  if (scenario.score === null) return null;
  return scenario.interval ?? { low: scenario.score, high: scenario.score };
}

/**
 * The rules a scenario must pass, in order; the first that fails gives its reason (without the name).
 * A rule for one kind of scenario reads what the input says of it and passes the others.
 */
const SCENARIO_RULES: ReadonlyArray<(scenario: ScenarioGateInput, range: ScoreRange, rules: ScenarioGateRules) => string | null> = [
  // Its own gate already fails it when an engine failed, so one failure fails (or, for the baseline, voids) every scenario it touched.
  (scenario) => (scenario.ownGate.passed ? null : scenario.ownGate.reason),
  (scenario, range, { maxRegression }) => {
    if (maxRegression === null || range === null || range.high >= maxRegression) return null;
    const what = scenario.interval ? "its interval's high end" : "its score";
    return `regressed beyond gate.maxRegression, ${what} ${formatScoreAgainstBar(range.high, maxRegression)} < ${formatBar(maxRegression)}`;
  },
];

export function judgeScenario(scenario: ScenarioGateInput, rules: ScenarioGateRules): ScenarioJudgement {
  const { name } = scenario;
  const range = scoreRange(scenario);
  const outcome: ScenarioOutcome = range === null ? "none" : range.low > 1 ? "improved" : range.high < 1 ? "regressed" : "unchanged";
  for (const rule of SCENARIO_RULES) {
    const failed = rule(scenario, range, rules);
    if (failed !== null) return { name, outcome, passed: false, reason: `${name}: ${failed}` };
  }
  return { name, outcome, passed: true, reason: null };
}

function listNames(judgements: readonly ScenarioJudgement[]): string {
  return judgements.map((judgement) => judgement.name).join(", ");
}

/**
 * The gate of a round with scenarios: every scenario passes every rule. `missing` names scenarios the
 * reader requires that the card lacks: each counts as one that did not pass, and the line names them.
 */
export function combineScenarioGates(
  scenarios: readonly ScenarioGateInput[],
  rules: ScenarioGateRules,
  missing: readonly string[] = [],
): CombinedGate {
  const judgements = scenarios.map((scenario) => judgeScenario(scenario, rules));
  const failed = judgements.filter((judgement) => !judgement.passed);
  const passed = failed.length === 0 && missing.length === 0;
  const parts = [`${judgements.length - failed.length} of ${judgements.length + missing.length} scenarios passed`];
  for (const outcome of ["improved", "regressed"] as const) {
    const these = judgements.filter((judgement) => judgement.outcome === outcome);
    if (these.length > 0) parts.push(`${outcome}: ${listNames(these)}`);
  }
  if (failed.length > 0) parts.push(`failed: ${listNames(failed)}`);
  if (missing.length > 0) parts.push(`missing: ${missing.join(", ")}`);
  return { passed, reason: parts.join("; "), reasons: failed.map((judgement) => judgement.reason ?? judgement.name), judgements };
}
