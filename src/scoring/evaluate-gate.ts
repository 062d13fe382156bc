import type { ScoreInterval } from "./bootstrap-interval.js";
import type { QualityJudgement } from "./judge-quality.js";
import { formatBar, formatPercent, formatPercentAgainst, formatScoreAgainstBar } from "./format-speedup.js";

/**
 * - `interval-low`: the bootstrap interval's low end must clear the bar (the default without a calibration).
 * - `noise-floor`: the round score must clear the bar raised by the runner's measured noise (the default with one).
 * - `round-score`: the round score alone must clear the bar; it passes an unchanged engine about half the time at a bar of 1.
 */
export type GateMode = "round-score" | "interval-low" | "noise-floor";

export const GATE_MODES = ["interval-low", "noise-floor", "round-score"] as const;

/** gate.use when the config leaves it out: the noise floor when the round names a calibration, the interval's low end otherwise. */
export function defaultGateMode(calibrated: boolean): GateMode {
  return calibrated ? "noise-floor" : "interval-low";
}

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

/** The most reasons a gate gives: the card's schema holds no more, so a merged gate keeps the first this many. */
export const MAX_GATE_REASONS = 20;
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
/**
 * Default of gate.minAgreement: the median prompt's answer must be the baseline's over the whole
 * compared length, so more than half of the prompts answer exactly as the baseline did. Honest drift
 * parts late and on some prompts only, so its median stays at 100%. At 75%, a candidate that streamed
 * the baseline's first three quarters of every answer and then free filler passed on the reference
 * engine (1.01x and 1.02x, filler after 75% and 80%): its streams left the batch early and sped up
 * the shared starts of the rest. A patch that changes the numerics of most answers (an 8-bit KV
 * cache) is the maintainers' call, made by lowering this, or measured by a calibration.
 */
export const DEFAULT_MIN_AGREEMENT = 1;
/**
 * Default of gate.maxUnexplained: no cut or parting the baseline's own answers do not show is free (a calibration may allow what the
 * baseline shows itself).
 */
export const DEFAULT_MAX_UNEXPLAINED = 0;
/** Below this many prompts a bootstrap interval is mostly the sample itself: none is shown. */
export const MIN_PROMPTS_FOR_INTERVAL = 5;

export interface GateSettings {
  minRoundScore: number;
  use: GateMode;
  /** The largest share of compared prompts that may go unscored (below tolerance, diverged, implausible, zeroed). */
  maxUnscored: number;
  /** The fewest compared prompts a verdict may rest on. */
  minPrompts: number;
  /** The least median agreement (share of k that is the baseline's answer) the round may show; 0 turns the rule off. Default 1. */
  minAgreement?: number;
  /** The largest share of compared prompts cut short or parted in a way the baseline's own answers do not explain. Default 0. */
  maxUnexplained?: number;
  /**
   * gate.answers: "quality" judges an answer no baseline answer explains by the round's question set instead of the agreement rules
   * (answersJudgedByQuality); "speed" or absent: the agreement rules.
   */
  answers?: "speed" | "quality" | undefined;
  /** gate.quality: the smallest significant drop in accuracy that fails; absent: DEFAULT_MAX_QUALITY_DROP. */
  quality?: { maxDrop: number } | undefined;
  /** A scenario's gate.role; absent: target (minRoundScore is its bar). */
  role?: ScenarioRole | undefined;
  /** gate.margin of a guard: how much slower it may surely be; absent: DEFAULT_GUARD_MARGIN. Ignored for a target. */
  margin?: number | undefined;
}

export interface GateResult extends GateSettings {
  minAgreement: number;
  maxUnexplained: number;
  passed: boolean;
  /** The verdict in one line: the rule's comparison when it passes, every reason it does not otherwise. */
  reason: string;
  /** Every reason the gate does not pass (a card keeps at most MAX_GATE_REASONS); empty when it passes. */
  reasons: string[];
  /** What the rule (gate.use) found, pass or fail; null when a failure left nothing to evaluate. */
  rule: string | null;
  /**
   * What the rule compares with: a target's minRoundScore, raised by the noise floor under `noise-floor`; a guard's
   * 1 − margin, lowered by it.
   */
  bar: number;
}

export interface NoiseInput {
  /** The calibrated noise floor as a fraction (0.031 = 3.1%). */
  floor: number;
  /** Why the calibration does not fit this round (another GPU, another baseline image); any one keeps the gate closed. */
  problems: readonly string[];
  /** How much the baseline disagreed with itself in the calibration's A/A rounds; absent in calibrations from before it was measured. */
  selfAgreement?: SelfAgreementInput | null;
}

/** The baseline's agreement with itself over a calibration's A/A rounds (its own batch nondeterminism). */
export interface SelfAgreementInput {
  /** The lowest median agreement of one A/A round; null when no answers were compared by text. */
  lowestMedianAgreement: number | null;
  /** The largest share of compared prompts one A/A round cut short or parted (below tolerance or diverged against itself). */
  mostDisagreed: number;
}

/**
 * Candidate answers held to every answer the baseline gave (matchBranches) that none explains, of
 * those compared, how often shuffling the engines' labels gives as many (shuffleUnexplained), and
 * whether the baseline's own answers to any prompt varied over the runs.
 */
export interface UnexplainedAnswers {
  count: number;
  compared: number;
  pValue: number;
  baselineVaries: boolean;
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
  /** Median over compared prompts of their agreement; null or absent when no answers were compared by text. */
  medianAgreement?: number | null;
  /**
   * The same median with each prompt that parts no earlier than the baseline's own answers to it do counted as agreeing (the rule's input);
   * absent: medianAgreement.
   */
  medianAgreementExplained?: number | null;
  /** Compared prompts with a cut or parting the baseline's own answers do not explain (isExplainedRun). */
  unexplained?: number;
  /** Which, such as "p3 (run 1, below tolerance), p7 (diverged)", for the reason. */
  unexplainedBreakdown?: string;
  /** When present, the unexplained rule counts answers and weighs them against the shuffle. */
  unexplainedAnswers?: UnexplainedAnswers | null;
  /** Runs the candidate served: with one, the baseline's answers show nothing of the engine's own variation. */
  runsServed?: number;
  /** The round's question set judged (judgeQuality); null or absent when the round has no quality: or nothing was compared. */
  quality?: QualityJudgement | null;
}

/**
 * Whether the round's changed answers are judged by its question set: the maintainers asked for it
 * (gate.answers: quality) and both engines answered questions in this round. Without that evidence the
 * agreement rules stay on, whatever the setting says. The one place the switch is decided: the gate's
 * integrity reasons and the timing of an unexplained answer (runSpeedup) both read it.
 */
export function answersJudgedByQuality(
  settings: Pick<GateSettings, "answers">,
  quality: Pick<QualityJudgement, "compared"> | null | undefined,
): boolean {
  return settings.answers === "quality" && quality !== null && quality !== undefined && quality.compared > 0;
}

/**
 * Below this, the candidate's unexplained answers are more than shuffling the two engines' labels gives
 * (1% of shuffles or fewer): not the engine's own nondeterminism. An honest candidate whose
 * continuations keep the baseline's odds fails this rule in about 1 round in 100 at most; one whose
 * batches differ enough to move the odds can fail it more often (8% of rounds, 50/50 moved to 20/80).
 */
export const UNEXPLAINED_SIGNIFICANCE = 0.01;

/**
 * A guard's rule, the mirror of a target's: it fails only when the candidate is surely slower than the bar
 * (1 − margin). Under interval-low the interval's high end must reach it, so a guard whose interval holds 1×
 * (no change the round can tell) always passes; under noise-floor the score must reach the bar lowered by the
 * floor, since the noise that could make an unchanged engine look faster can as well make it look slower.
 */
function guardOutcome(input: GateInput, settings: GateSettings, bar: number): { passed: boolean; statement: string } {
  const score = input.roundScore as number;
  const margin = `guard: not slower than 1 − gate.margin ${formatPercent(settings.margin ?? DEFAULT_GUARD_MARGIN)}`;
  switch (settings.use) {
    case "round-score": {
      const passed = score >= bar;
      return {
        passed,
        statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${formatBar(bar, score)} (${margin})`,
      };
    }
    case "interval-low": {
      if (!input.interval) {
        return {
          passed: false,
          statement: `no interval to gate on with fewer than ${MIN_PROMPTS_FOR_INTERVAL} prompts (gate.use is interval-low)`,
        };
      }
      const passed = input.interval.high >= bar;
      return {
        passed,
        statement:
          `interval high ${formatScoreAgainstBar(input.interval.high, bar)} ${passed ? "≥" : "<"} ` +
          `${formatBar(bar, input.interval.high)} (${margin})`,
      };
    }
    case "noise-floor": {
      if (!input.noise)
        return { passed: false, statement: "gate.use is noise-floor but the round names no calibration (gate.calibration)" };
      if (input.noise.problems.length > 0) {
        return { passed: false, statement: `the calibration does not fit this round: ${input.noise.problems.join("; ")}` };
      }
      const passed = score >= bar;
      const floor = `${margin}, lowered by the noise floor ${formatPercent(input.noise.floor)}`;
      return {
        passed,
        statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${formatBar(bar, score)} (${floor})`,
      };
    }
  }
}

function ruleOutcome(input: GateInput, settings: GateSettings, bar: number): { passed: boolean; statement: string } {
  if (settings.role === "guard") return guardOutcome(input, settings, bar);
  const score = input.roundScore as number;
  switch (settings.use) {
    case "round-score": {
      const passed = score >= bar;
      return { passed, statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${formatBar(bar, score)}` };
    }
    case "interval-low": {
      if (!input.interval) {
        return {
          passed: false,
          statement: `no interval to gate on with fewer than ${MIN_PROMPTS_FOR_INTERVAL} prompts (gate.use is interval-low)`,
        };
      }
      const passed = input.interval.low >= bar;
      return {
        passed,
        statement:
          `interval low ${formatScoreAgainstBar(input.interval.low, bar)} ${passed ? "≥" : "<"} ` + formatBar(bar, input.interval.low),
      };
    }
    case "noise-floor": {
      if (!input.noise)
        return { passed: false, statement: "gate.use is noise-floor but the round names no calibration (gate.calibration)" };
      if (input.noise.problems.length > 0) {
        return { passed: false, statement: `the calibration does not fit this round: ${input.noise.problems.join("; ")}` };
      }
      const passed = score >= bar;
      const floor = `${formatBar(settings.minRoundScore)} + noise floor ${formatPercent(input.noise.floor)}`;
      return {
        passed,
        statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${formatBar(bar, score)} (${floor})`,
      };
    }
  }
}

/**
 * The agreement rules: the round's median agreement, and the cuts and partings the baseline's own
 * answers do not explain. A calibration that fits the round relaxes each to what the baseline showed
 * against itself, so an engine whose own answers vary with the batch is not held to more than it can do.
 */
function agreementReasons(input: GateInput, limits: { minAgreement: number; maxUnexplained: number }): string[] {
  const reasons: string[] = [];
  const calibrated = input.noise && input.noise.problems.length === 0 ? (input.noise.selfAgreement ?? null) : null;
  const measured = input.medianAgreement;
  const median = input.medianAgreementExplained ?? measured;
  if (limits.minAgreement > 0 && median !== null && median !== undefined) {
    const own = calibrated?.lowestMedianAgreement ?? null;
    const floor = own !== null && own < limits.minAgreement ? own : limits.minAgreement;
    if (median < floor) {
      const lowered =
        floor < limits.minAgreement
          ? ` (lowered from ${formatPercent(limits.minAgreement)} to the baseline's own lowest in calibration)`
          : "";
      const explained =
        measured !== null && measured !== undefined && median > measured
          ? " (counting partings the baseline's own runs show as agreement)"
          : "";
      reasons.push(
        `median agreement ${formatPercentAgainst(median, floor)}${explained} < gate.minAgreement ${formatPercent(floor)}${lowered}: ` +
          `most answers are not the baseline's over the compared length`,
      );
    }
  }
  const compared = input.promptsCompared;
  const unexplained = input.unexplained ?? 0;
  const allowed = Math.max(limits.maxUnexplained, calibrated?.mostDisagreed ?? 0);
  const answers = input.unexplainedAnswers;
  if (answers) {
    const reason = unexplainedAnswersReason(answers, input, allowed, limits.maxUnexplained);
    if (reason) reasons.push(reason);
    return reasons;
  }
  if (compared > 0 && unexplained / compared > allowed) {
    const limit =
      allowed > limits.maxUnexplained
        ? `the ${formatPercent(allowed)} the baseline showed against itself in calibration`
        : `gate.maxUnexplained ${formatPercent(allowed)}`;
    reasons.push(
      `${unexplained} of ${compared} prompts (${formatPercentAgainst(unexplained / compared, allowed)}) were cut short or parted ` +
        `where the baseline's own answers are not (${input.unexplainedBreakdown ?? "no detail"}), more than ${limit}`,
    );
  }
  return reasons;
}

/**
 * The unexplained rule for answers held to every answer the baseline gave: more unexplained answers
 * than `allowed` (gate.maxUnexplained, or what a fitting calibration measured) fail when the shuffle
 * test says the engine's own branches do not account for them; and every one counts when the round
 * shows no nondeterminism to allow for: one run, or a baseline that answered every prompt the same
 * way in every run (a deterministic engine's A/A round shows no unexplained answer at all).
 */
function unexplainedAnswersReason(answers: UnexplainedAnswers, input: GateInput, allowed: number, maxUnexplained: number): string | null {
  if (answers.compared === 0 || answers.count / answers.compared <= allowed) return null;
  const oneRun = (input.runsServed ?? 2) < 2;
  // An engine whose own answers never varied over the round's runs licenses no unexplained answer.
  const steady = !oneRun && !answers.baselineVaries;
  if (!oneRun && !steady && answers.pValue >= UNEXPLAINED_SIGNIFICANCE) return null;
  const share = answers.count / answers.compared;
  const which = input.unexplainedBreakdown ? ` (${input.unexplainedBreakdown})` : "";
  const beyond = oneRun
    ? "with one run the baseline's own answers show nothing of its variation"
    : steady
      ? "while the baseline answered every prompt the same way in every run"
      : `more than the engine's own answers show: shuffling which answers came from which engine gave as many in ` +
        `${formatPValue(answers.pValue)} of shuffles, under ${formatPercent(UNEXPLAINED_SIGNIFICANCE)}`;
  const limit =
    allowed > maxUnexplained
      ? `the ${formatPercent(allowed)} the baseline showed against itself in calibration`
      : `gate.maxUnexplained ${formatPercent(allowed)}`;
  return (
    `${answers.count} of ${answers.compared} answers (${formatPercentAgainst(share, allowed)}) are none the baseline gave${which}, ` +
    `${beyond}, and above ${limit}`
  );
}

/** A p-value as a share of shuffles: "0.3%", "under 0.1%". */
function formatPValue(p: number): string {
  return p < 0.001 ? "under 0.1%" : formatPercent(p);
}

/**
 * The reasons about the candidate's answers rather than its speed: the agreement rules (the median
 * agreement, the unexplained answers and everything that weighs them). Under gate.answers: quality with
 * a question set answered (answersJudgedByQuality) none of them applies: an answer no baseline answer
 * explains is no longer a failure by itself, and the quality rule judges whether the changed answers are
 * worse. Cuts, failures and implausible counts are not here: they score 0 and count under
 * gate.maxUnscored whatever judges the answers.
 */
function integrityReasons(input: GateInput, settings: GateSettings, limits: { minAgreement: number; maxUnexplained: number }): string[] {
  if (answersJudgedByQuality(settings, input.quality)) return [];
  return agreementReasons(input, limits);
}

/**
 * The verdict. Someone else's failure (the baseline's, the infrastructure's) gives no verdict at all;
 * otherwise every reason the gate does not pass is listed, so a card never shows only the median
 * while a crash or a pile of truncated answers is what kept the patch out.
 */
/** The bar the rule compares with (GateResult.bar). */
export function gateBar(settings: GateSettings, noise: NoiseInput | null | undefined): number {
  const floor = settings.use === "noise-floor" && noise ? noise.floor : null;
  if (settings.role === "guard") {
    const bar = 1 - (settings.margin ?? DEFAULT_GUARD_MARGIN);
    return floor === null ? bar : bar / (1 + floor);
  }
  return floor === null ? settings.minRoundScore : settings.minRoundScore * (1 + floor);
}

export function evaluateGate(input: GateInput, settings: GateSettings): GateResult {
  const bar = gateBar(settings, input.noise);
  const minAgreement = settings.minAgreement ?? DEFAULT_MIN_AGREEMENT;
  const maxUnexplained = settings.maxUnexplained ?? DEFAULT_MAX_UNEXPLAINED;
  const base = { ...settings, minAgreement, maxUnexplained, bar };
  const fail = (reasons: string[], rule: string | null = null): GateResult => ({
    ...base,
    passed: false,
    reason: reasons.join("; "),
    reasons,
    rule,
  });
  if (input.infrastructureFailure) return fail([`the infrastructure failed, not the patch: ${input.infrastructureFailure}`]);
  if (input.baselineFailure) return fail([`the baseline engine failed, not the patch: ${input.baselineFailure}`]);
  if (input.roundScore === null) return fail([`no round score: ${input.noScoreReason ?? "no prompt was measured"}`]);

  const reasons: string[] = [];
  if (input.candidateFailure) reasons.push(`the candidate engine failed: ${input.candidateFailure}`);
  const compared = input.promptsCompared;
  if (compared > 0 && input.unscored / compared > settings.maxUnscored) {
    reasons.push(
      `${input.unscored} of ${compared} prompts (${formatPercentAgainst(input.unscored / compared, settings.maxUnscored)}) were not ` +
        `scored (${input.unscoredBreakdown}), more than gate.maxUnscored ${formatPercent(settings.maxUnscored)}`,
    );
  }
  reasons.push(...integrityReasons(input, settings, { minAgreement, maxUnexplained }));
  if (input.quality?.reason) reasons.push(input.quality.reason);
  if (compared < settings.minPrompts) {
    reasons.push(`too few prompts for a verdict: ${compared} compared, gate.minPrompts is ${settings.minPrompts}`);
  }
  const rule = ruleOutcome(input, settings, bar);
  if (!rule.passed) reasons.push(rule.statement);
  if (reasons.length > 0) return fail(reasons, rule.statement);
  return { ...base, passed: true, reason: rule.statement, reasons: [], rule: rule.statement };
}
