import { formatBar, formatScoreAgainstBar, formatTimes } from "../scoring/format-speedup.js";
import type { ScenarioCard, ScenarioResult, Scorecard } from "./scorecard-schema.js";

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
  /** The scenario passed its own gate and stayed within gate.maxRegression. */
  passed: boolean;
  /** Why it did not pass; null when it did. */
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
function scoreRange(card: ScenarioCard): { low: number; high: number } | null {
  if (card.roundScore === null) return null;
  return card.scoreInterval
    ? { low: card.scoreInterval.low, high: card.scoreInterval.high }
    : { low: card.roundScore, high: card.roundScore };
}

export function judgeScenario(scenario: ScenarioResult, maxRegression: number | null): ScenarioJudgement {
  const { name, card } = scenario;
  const range = scoreRange(card);
  const outcome: ScenarioOutcome = range === null ? "none" : range.low > 1 ? "improved" : range.high < 1 ? "regressed" : "unchanged";
  if (!card.gate.passed) return { name, outcome, passed: false, reason: `${name}: ${card.gate.reason}` };
  if (maxRegression !== null && range !== null && range.high < maxRegression) {
    const what = card.scoreInterval
      ? `its interval's high end ${formatScoreAgainstBar(range.high, maxRegression)}`
      : `its score ${formatScoreAgainstBar(range.high, maxRegression)}`;
    return { name, outcome, passed: false, reason: `${name}: regressed beyond gate.maxRegression, ${what} < ${formatBar(maxRegression)}` };
  }
  return { name, outcome, passed: true, reason: null };
}

function listNames(judgements: readonly ScenarioJudgement[]): string {
  return judgements.map((judgement) => judgement.name).join(", ");
}

/**
 * The gate of a round with scenarios: every scenario passes its own bar, and none regresses beyond
 * gate.maxRegression. A scenario's own gate already fails it when an engine failed, so one failure
 * fails (or, for the baseline, voids) every scenario it touched. `missing` names scenarios the reader
 * requires that the card lacks: each counts as one that did not pass, and the line names them.
 */
export function combineScenarioGates(
  scenarios: readonly ScenarioResult[],
  maxRegression: number | null,
  missing: readonly string[] = [],
): CombinedGate {
  const judgements = scenarios.map((scenario) => judgeScenario(scenario, maxRegression));
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

/**
 * The card of a round with scenarios, from its scenarios' cards: the first scenario's figures at the
 * top (the headline), the combined gate, and every scenario below. A fresh round, a shard merge and the
 * app's re-gate all build it here, so what the top level says can always be derived again.
 */
export function assembleScenarioCard(
  scenarios: readonly ScenarioResult[],
  maxRegression: number | null,
  extra: Pick<Scorecard, "timeSpent"> = {},
): Scorecard {
  const headline = scenarios[0];
  if (!headline) throw new Error("a round with scenarios needs at least one scenario");
  const combined = combineScenarioGates(scenarios, maxRegression);
  return {
    ...headline.card,
    ...extra,
    gate: {
      ...headline.card.gate,
      maxRegression,
      passed: combined.passed,
      reason: combined.reason,
      reasons: combined.reasons.slice(0, 20),
      // The headline's rule is one scenario's; the combined gate has none of its own.
      rule: null,
    },
    scenarios: [...scenarios],
  };
}

/** The scenario's score and interval in a short phrase: "1.12× [1.08×, 1.15×]". */
export function describeScenarioScore(card: ScenarioCard): string {
  if (card.roundScore === null) return "—";
  const interval = card.scoreInterval ? ` [${formatTimes(card.scoreInterval.low)}, ${formatTimes(card.scoreInterval.high)}]` : "";
  return `${formatTimes(card.roundScore)}${interval}`;
}
