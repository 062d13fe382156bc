import type { ScoreInterval } from "./bootstrap-interval.js";

export type GateMode = "round-score" | "interval-low";

export interface GateSettings {
  minRoundScore: number;
  use: GateMode;
}

export interface GateResult {
  minRoundScore: number;
  use: GateMode;
  passed: boolean;
  reason: string;
}

export interface GateInput {
  roundScore: number | null;
  interval: ScoreInterval | null;
  /** Set when the baseline engine failed: without a sound reference nothing may pass. */
  baselineFailure: string | null;
  /** Set when what ran an engine failed (the Docker daemon went away): the measurement is unsound whichever engine it hit. */
  infrastructureFailure?: string | null;
  /** Why there is no round score, when there is none. */
  noScoreReason: string | null;
}

export function formatSpeedup(value: number): string {
  return `${value.toFixed(2)}×`;
}

export function evaluateGate(input: GateInput, settings: GateSettings): GateResult {
  const base = { minRoundScore: settings.minRoundScore, use: settings.use };
  const bar = formatSpeedup(settings.minRoundScore);
  if (input.infrastructureFailure) {
    return { ...base, passed: false, reason: `the infrastructure failed, not the patch: ${input.infrastructureFailure}` };
  }
  if (input.baselineFailure) {
    return { ...base, passed: false, reason: `the baseline engine failed, not the patch: ${input.baselineFailure}` };
  }
  if (input.roundScore === null) {
    return { ...base, passed: false, reason: `no round score: ${input.noScoreReason ?? "no prompt was attempted"}` };
  }
  if (settings.use === "interval-low") {
    const low = input.interval?.low ?? input.roundScore;
    const passed = low >= settings.minRoundScore;
    return {
      ...base,
      passed,
      reason: `interval low ${formatSpeedup(low)} ${passed ? "≥" : "<"} ${bar}`,
    };
  }
  const passed = input.roundScore >= settings.minRoundScore;
  return { ...base, passed, reason: `round score ${formatSpeedup(input.roundScore)} ${passed ? "≥" : "<"} ${bar}` };
}
