import { DEFAULT_GUARD_MARGIN, type ScenarioRole } from "./scenario-role.js";
import { compareIds } from "./compare-ids.js";
import { formatBar, formatPercent, formatPercentAgainst, formatScoreAgainstBar, formatTimes } from "./format-speedup.js";
import type { LatencyRatios } from "./measure-latency-ratios.js";

/*
 * A minority regression: the round score is the median over prompts, which a patch that slows a
 * quarter of the requests (a scheduler that starves some prompts while the rest decode faster) does
 * not move. Measured on the reference engine under steady traffic: 8 of 30 prompts starved scored
 * 0.36–0.71× while the round scored 1.28× and passed, its E2E p90 1.60× and its throughput 0.82× the
 * baseline's. The gate fails a round where more than gate.maxRegressedPrompts of the compared prompts
 * score below gate.regressionFloor, or where the E2E p90 at equal length or the output throughput is
 * worse than the same floor allows (p90 above 1/floor, throughput below the floor): "clearly worse" is
 * set well past what run-to-run noise moves them (a few percent; 8% on a saturated GPU).
 */

/** Default of gate.regressionFloor: a prompt scoring under 0.8× (25% more time) is a regressed prompt. */
export const DEFAULT_REGRESSION_FLOOR = 0.8;
/** Default of gate.maxRegressedPrompts: more than 10% of the compared prompts regressed fails the gate. */
export const DEFAULT_MAX_REGRESSED_PROMPTS = 0.1;
/** The regressed prompts a reason names; the card lists the rest. */
const NAMED = 6;

export interface RegressionSettings {
  regressionFloor: number;
  maxRegressedPrompts: number;
  /** gate.minRoundScore: a bar under 1 (a slowdown the maintainers accept) lowers the floor with it; absent: 1. */
  minRoundScore?: number;
  /** A guard's floor follows its own bar, 1 − gate.margin. */
  role?: ScenarioRole | undefined;
  margin?: number | undefined;
  /** The bar the gate's rule compared with (gateBar: a guard's lowered by a calibration's noise floor); absent: read from the above. */
  bar?: number | undefined;
}

/**
 * The floor a prompt is held to: gate.regressionFloor of the bar where the bar is under 1. A scenario
 * whose maintainers accept 0.25× (a noisy one-run workload, a "must not regress by much" bar) is not
 * failed for prompts at 0.6×, which its own bar allows; a guard's bar is 1 − margin, lowered by a
 * calibration's noise floor, whatever minRoundScore says; at a bar of 1 or more the floor is gate.regressionFloor.
 */
export function effectiveRegressionFloor(settings: Partial<RegressionSettings>): number {
  const bar = settings.bar ?? (settings.role === "guard" ? 1 - (settings.margin ?? DEFAULT_GUARD_MARGIN) : (settings.minRoundScore ?? 1));
  return (settings.regressionFloor ?? DEFAULT_REGRESSION_FLOOR) * Math.min(1, bar);
}

/** How a reason names the floor: gate.regressionFloor, or that of the bar. */
function floorName(settings: RegressionSettings): string {
  if (effectiveRegressionFloor({ ...settings, regressionFloor: 1 }) >= 1) return "gate.regressionFloor";
  return settings.role === "guard" ? "gate.regressionFloor × the guard's bar" : "gate.regressionFloor × gate.minRoundScore";
}

/** What the minority-regression rule reads of a round. */
export interface RegressionEvidence {
  /** Compared prompts (the baseline answered them). */
  compared: number;
  /** Scored prompts below the floor, each with its combined score. */
  regressed: Array<{ id: string; score: number }>;
  ratios: LatencyRatios;
}

/** The scored prompts whose combined score is under `floor`, slowest first. */
export function findRegressedPrompts(
  prompts: ReadonlyArray<{ id: string; status: string; score: number | null }>,
  floor: number,
): Array<{ id: string; score: number }> {
  return prompts
    .flatMap((prompt) =>
      prompt.status === "scored" && prompt.score !== null && prompt.score < floor ? [{ id: prompt.id, score: prompt.score }] : [],
    )
    .sort((a, b) => a.score - b.score || compareIds(a.id, b.id));
}

/** The gate's reasons for a minority regression; empty when there is none. */
export function judgeRegression(evidence: RegressionEvidence, settings: RegressionSettings): string[] {
  const reasons: string[] = [];
  const { compared, regressed, ratios } = evidence;
  const floor = effectiveRegressionFloor(settings);
  const name = floorName(settings);
  if (compared > 0 && regressed.length / compared > settings.maxRegressedPrompts) {
    const named = regressed.slice(0, NAMED).map((prompt) => `${prompt.id} ${formatTimes(prompt.score)}`);
    const more = regressed.length > NAMED ? `; ${regressed.length - NAMED} more` : "";
    reasons.push(
      `${regressed.length} of ${compared} prompts (${formatPercentAgainst(regressed.length / compared, settings.maxRegressedPrompts)}) ` +
        `scored below ${name} ${formatBar(floor)} (${named.join(", ")}${more}), more than gate.maxRegressedPrompts ` +
        `${formatPercent(settings.maxRegressedPrompts)}: the median hides a minority of requests that got slower`,
    );
  }
  if (ratios.e2eP90 !== null && ratios.e2eP90 > 1 / floor) {
    reasons.push(
      `E2E p90 at equal length ${formatScoreAgainstBar(ratios.e2eP90, 1 / floor)} the baseline's, above ${formatBar(1 / floor)} ` +
        `(1 / ${name}): the ` +
        `slowest requests got slower`,
    );
  }
  if (ratios.throughput !== null && ratios.throughput < floor) {
    reasons.push(
      `output throughput ${formatScoreAgainstBar(ratios.throughput, floor)} the baseline's, below ${name} ` +
        `${formatBar(floor)}: the same work took ` +
        `longer`,
    );
  }
  return reasons;
}
