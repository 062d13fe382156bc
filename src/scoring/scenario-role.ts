/**
 * A scenario's role. A `target` is a workload the pull request means to speed up: it must clear its bar
 * (minRoundScore) by the gate's rule. A `guard` is one it does not target: it must not be clearly slower,
 * a non-inferiority test that fails only when the candidate is slower beyond the round's noise by more
 * than gate.margin.
 */
export type ScenarioRole = "target" | "guard";

export const SCENARIO_ROLES = ["target", "guard"] as const;

/**
 * gate.margin by default: a guard fails only when it is surely more than 5% slower. Under interval-low
 * its interval's high end must reach 0.95; with a calibration its round score must reach 0.95 lowered by
 * the noise floor (an unchanged engine's score falls below 1 / (1 + floor) about as rarely as it rises
 * above 1 + floor).
 */
export const DEFAULT_GUARD_MARGIN = 0.05;
