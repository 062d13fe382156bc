import type { ScoreInterval } from "./bootstrap-interval.js";
import { formatBar, formatPercent, formatPercentAgainst, formatScoreAgainstBar } from "./format-speedup.js";

/**
 * - `interval-low`: the bootstrap interval's low end must clear the bar (the default without a calibration).
 * - `noise-floor`: the round score must clear the bar raised by the runner's measured noise (the default with one).
 * - `round-score`: the round score alone must clear the bar; it passes an unchanged engine about half the time at a bar of 1.
 */
export type GateMode = "round-score" | "interval-low" | "noise-floor";

export const GATE_MODES = ["interval-low", "noise-floor", "round-score"] as const;
export const DEFAULT_MAX_UNSCORED = 0.1;
export const DEFAULT_MIN_PROMPTS = 10;
/**
 * bench.runs by default: the fewest runs whose interval alone holds the gate without a calibration.
 * On a runner whose engine starts differ by 2%, one run passed an unchanged engine in 20% of rounds
 * and three passed a 10% speedup in only 94%; four pass the first under 1% and the second in all
 * rounds (bench/gate-statistics.ts, docs/scoring-statistics.md). An even count also lets the
 * counterbalanced order put each engine first equally often.
 */
export const DEFAULT_BENCH_RUNS = 4;
/** Below this many prompts a bootstrap interval is mostly the sample itself: none is shown. */
export const MIN_PROMPTS_FOR_INTERVAL = 5;

export interface GateSettings {
  minRoundScore: number;
  use: GateMode;
  /** The largest share of compared prompts that may go unscored (below tolerance, diverged, implausible, zeroed). */
  maxUnscored: number;
  /** The fewest compared prompts a verdict may rest on. */
  minPrompts: number;
}

export interface GateResult extends GateSettings {
  passed: boolean;
  /** The verdict in one line: the rule's comparison when it passes, every reason it does not otherwise. */
  reason: string;
  /** Every reason the gate does not pass; empty when it passes. */
  reasons: string[];
  /** What the rule (gate.use) found, pass or fail; null when a failure left nothing to evaluate. */
  rule: string | null;
  /** What the rule compares with: minRoundScore, raised by the noise floor under `noise-floor`. */
  bar: number;
}

export interface NoiseInput {
  /** The calibrated noise floor as a fraction (0.031 = 3.1%). */
  floor: number;
  /** Why the calibration does not fit this round (another GPU, another baseline image); any one keeps the gate closed. */
  problems: readonly string[];
}

export interface GateInput {
  roundScore: number | null;
  interval: ScoreInterval | null;
  /** Prompts the round score is taken over (the baseline answered them). */
  promptsCompared: number;
  /** Of those, the ones that scored 0: below tolerance, diverged, implausible or zeroed. */
  unscored: number;
  /** Such as "9 below tolerance, 1 zeroed", for the reason. */
  unscoredBreakdown: string;
  /** Set when the baseline engine failed: without a sound reference nothing may pass. */
  baselineFailure: string | null;
  /** Set when what ran an engine failed (the Docker daemon went away): the measurement is unsound whichever engine it hit. */
  infrastructureFailure?: string | null;
  /** Set when the candidate engine failed in any run: a patch that crashes never passes, whatever it scored before. */
  candidateFailure?: string | null;
  /** Why there is no round score, when there is none. */
  noScoreReason: string | null;
  /** The round's calibration, when it names one. */
  noise?: NoiseInput | null;
}

function ruleOutcome(input: GateInput, settings: GateSettings, bar: number): { passed: boolean; statement: string } {
  const score = input.roundScore as number;
  const shownBar = formatBar(bar);
  switch (settings.use) {
    case "round-score": {
      const passed = score >= bar;
      return { passed, statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${shownBar}` };
    }
    case "interval-low": {
      if (!input.interval) {
        return { passed: false, statement: `no interval to gate on with fewer than ${MIN_PROMPTS_FOR_INTERVAL} prompts (gate.use is interval-low)` };
      }
      const passed = input.interval.low >= bar;
      return { passed, statement: `interval low ${formatScoreAgainstBar(input.interval.low, bar)} ${passed ? "≥" : "<"} ${shownBar}` };
    }
    case "noise-floor": {
      if (!input.noise) return { passed: false, statement: "gate.use is noise-floor but the round names no calibration (gate.calibration)" };
      if (input.noise.problems.length > 0) {
        return { passed: false, statement: `the calibration does not fit this round: ${input.noise.problems.join("; ")}` };
      }
      const passed = score >= bar;
      const floor = `${formatBar(settings.minRoundScore)} + noise floor ${formatPercent(input.noise.floor)}`;
      return { passed, statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${shownBar} (${floor})` };
    }
  }
}

/**
 * The verdict. Someone else's failure (the baseline's, the infrastructure's) gives no verdict at all;
 * otherwise every reason the gate does not pass is listed, so a card never shows only the median
 * while a crash or a pile of truncated answers is what kept the patch out.
 */
export function evaluateGate(input: GateInput, settings: GateSettings): GateResult {
  const bar = settings.use === "noise-floor" && input.noise ? settings.minRoundScore * (1 + input.noise.floor) : settings.minRoundScore;
  const base = { ...settings, bar };
  const fail = (reasons: string[], rule: string | null = null): GateResult => ({ ...base, passed: false, reason: reasons.join("; "), reasons, rule });
  if (input.infrastructureFailure) return fail([`the infrastructure failed, not the patch: ${input.infrastructureFailure}`]);
  if (input.baselineFailure) return fail([`the baseline engine failed, not the patch: ${input.baselineFailure}`]);
  if (input.roundScore === null) return fail([`no round score: ${input.noScoreReason ?? "no prompt was measured"}`]);

  const reasons: string[] = [];
  if (input.candidateFailure) reasons.push(`the candidate engine failed: ${input.candidateFailure}`);
  const compared = input.promptsCompared;
  if (compared > 0 && input.unscored / compared > settings.maxUnscored) {
    reasons.push(
      `${input.unscored} of ${compared} prompts (${formatPercentAgainst(input.unscored / compared, settings.maxUnscored)}) were not scored (${input.unscoredBreakdown}), more than gate.maxUnscored ${formatPercent(settings.maxUnscored)}`,
    );
  }
  if (compared < settings.minPrompts) {
    reasons.push(`too few prompts for a verdict: ${compared} compared, gate.minPrompts is ${settings.minPrompts}`);
  }
  const rule = ruleOutcome(input, settings, bar);
  if (!rule.passed) reasons.push(rule.statement);
  if (reasons.length > 0) return fail(reasons, rule.statement);
  return { ...base, passed: true, reason: rule.statement, reasons: [], rule: rule.statement };
}
