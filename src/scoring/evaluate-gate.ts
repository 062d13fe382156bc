import type { ScoreInterval } from "./bootstrap-interval.js";
import type { QualityJudgement } from "./judge-quality.js";
import { formatBar, formatPercent, formatPercentAgainst, formatScoreAgainstBar } from "./format-speedup.js";
import { type UnexplainedAnswers, type UnexplainedJudgement, type UnexplainedRule, judgeUnexplained } from "./judge-unexplained.js";
import { DEFAULT_GUARD_MARGIN, type ScenarioRole } from "./scenario-role.js";
import {
  effectiveRegressionFloor,
  DEFAULT_MAX_REGRESSED_PROMPTS,
  DEFAULT_REGRESSION_FLOOR,
  type RegressionEvidence,
  judgeRegression,
} from "./judge-regression.js";

/**
 * - `interval-low`: the bootstrap interval's low end must clear the bar (the default without a calibration).
 * - `noise-floor`: the round score must clear the bar raised by the runner's measured noise (the default with one).
 * - `round-score`: the round score alone must clear the bar; it passes an unchanged engine about half the time at a bar of 1.
 * - `sequential`: the sequential test over the runs must pass (decideSequential; the rule of a run budget).
 */
export type GateMode = "round-score" | "interval-low" | "noise-floor" | "sequential";

export const GATE_MODES = ["interval-low", "noise-floor", "round-score", "sequential"] as const;

/**
 * gate.use when the config leaves it out: the sequential rule for a run budget (bench.runs { min, max });
 * for a fixed number of runs, the noise floor when the round names a calibration, the interval's low end otherwise.
 */
export function defaultGateMode(calibrated: boolean, budget = false): GateMode {
  return budget ? "sequential" : calibrated ? "noise-floor" : "interval-low";
}

/** The most reasons a gate gives: the card's schema holds no more, so a merged gate keeps the first this many. */
export const MAX_GATE_REASONS = 20;
export const DEFAULT_MAX_UNSCORED = 0.1;
export const DEFAULT_MIN_PROMPTS = 10;
/**
 * bench.runs by default before run budgets, and the fixed four a budget's card counts its engine time
 * against: the fewest runs whose interval alone holds the gate without a calibration.
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
  /** A prompt scoring under this is regressed, and the E2E p90 and throughput may be no worse than it allows. Default 0.8. */
  regressionFloor?: number;
  /** The largest share of compared prompts that may be regressed. Default 0.1. */
  maxRegressedPrompts?: number;
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
  regressionFloor: number;
  maxRegressedPrompts: number;
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
  /**
   * Which measure decided the unexplained rule and what it found, pass or fail (judgeUnexplained); absent when no answers were held
   * to every baseline answer or the round ended before the rule was asked.
   */
  unexplainedDecision?: { rule: UnexplainedRule; statement: string } | null;
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
  /**
   * Over the A/A rounds, the candidate seat's answers (the baseline again) that none of the baseline seat's explained, of those
   * compared: the engine's own rate of odd answers for the unexplained rule. Absent in calibrations from before it was counted.
   */
  unexplained?: { count: number; compared: number } | null;
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
  /** The sequential test's outcome (gate.use sequential); absent for a round of a fixed number of runs. */
  sequential?: { passed: boolean; statement: string } | null;
  /** The regressed prompts and the tail latency and throughput ratios, for the minority-regression rule; absent: not judged. */
  regression?: RegressionEvidence | null;
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

type RuleOutcome = { passed: boolean; statement: string };

const NO_RUNS_TO_TEST: RuleOutcome = { passed: false, statement: "gate.use is sequential but the round has no runs to test (bench.runs)" };

/**
 * What a rule needs before it can judge, the same for a target and a guard: an interval under interval-low, a
 * calibration under noise-floor, and a calibration that fits the round wherever one is named. Null when it may judge.
 */
function gateInputProblem(input: GateInput, settings: GateSettings): RuleOutcome | null {
  if (settings.use === "interval-low" && !input.interval) {
    return {
      passed: false,
      statement: `no interval to gate on with fewer than ${MIN_PROMPTS_FOR_INTERVAL} prompts (gate.use is interval-low)`,
    };
  }
  if (settings.use === "noise-floor" && !input.noise) {
    return { passed: false, statement: "gate.use is noise-floor but the round names no calibration (gate.calibration)" };
  }
  if ((settings.use === "noise-floor" || settings.use === "sequential") && input.noise && input.noise.problems.length > 0) {
    return { passed: false, statement: `the calibration does not fit this round: ${input.noise.problems.join("; ")}` };
  }
  return null;
}

/**
 * A guard's rule, the mirror of a target's: it fails only when the candidate is surely slower than the bar
 * (1 − margin). Under interval-low the interval's high end must reach it, so a guard whose interval holds 1×
 * (no change the round can tell) always passes; under noise-floor the score must reach the bar lowered by the
 * floor, since the noise that could make an unchanged engine look faster can as well make it look slower.
 */
function guardOutcome(input: GateInput, settings: GateSettings, bar: number): RuleOutcome {
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
      if (!input.interval) throw new Error("unreachable: gateInputProblem checks the interval first");
      const passed = input.interval.high >= bar;
      return {
        passed,
        statement:
          `interval high ${formatScoreAgainstBar(input.interval.high, bar)} ${passed ? "≥" : "<"} ` +
          `${formatBar(bar, input.interval.high)} (${margin})`,
      };
    }
    case "noise-floor": {
      if (!input.noise) throw new Error("unreachable: gateInputProblem checks the calibration first");
      const passed = score >= bar;
      const floor = `${margin}, lowered by the noise floor ${formatPercent(input.noise.floor)}`;
      return {
        passed,
        statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${formatBar(bar, score)} (${floor})`,
      };
    }
    case "sequential": {
      // The sequential test looked for the guard's bar from above (summarizeRound); whatever stopped it, the guard fails only
      // when the test's bound at its last look lies wholly below the bar, as under interval-low.
      if (!input.interval) return NO_RUNS_TO_TEST;
      const passed = input.interval.high >= bar;
      return {
        passed,
        statement:
          `sequential bound high ${formatScoreAgainstBar(input.interval.high, bar)} ${passed ? "≥" : "<"} ` +
          `${formatBar(bar, input.interval.high)} (${margin})`,
      };
    }
  }
}

function ruleOutcome(input: GateInput, settings: GateSettings, bar: number): RuleOutcome {
  const problem = gateInputProblem(input, settings);
  if (problem) return problem;
  if (settings.role === "guard") return guardOutcome(input, settings, bar);
  const score = input.roundScore as number;
  switch (settings.use) {
    case "round-score": {
      const passed = score >= bar;
      return { passed, statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${formatBar(bar, score)}` };
    }
    case "interval-low": {
      if (!input.interval) throw new Error("unreachable: gateInputProblem checks the interval first");
      const passed = input.interval.low >= bar;
      return {
        passed,
        statement:
          `interval low ${formatScoreAgainstBar(input.interval.low, bar)} ${passed ? "≥" : "<"} ` + formatBar(bar, input.interval.low),
      };
    }
    case "noise-floor": {
      if (!input.noise) throw new Error("unreachable: gateInputProblem checks the calibration first");
      const passed = score >= bar;
      const floor = `${formatBar(settings.minRoundScore)} + noise floor ${formatPercent(input.noise.floor)}`;
      return {
        passed,
        statement: `round score ${formatScoreAgainstBar(score, bar)} ${passed ? "≥" : "<"} ${formatBar(bar, score)} (${floor})`,
      };
    }
    case "sequential": {
      return input.sequential ?? NO_RUNS_TO_TEST;
    }
  }
}

/**
 * The median agreement rule. A calibration that fits the round lowers its bar to what the baseline
 * showed against itself, so an engine whose own answers vary with the batch is not held to more than it can do.
 */
function agreementReasons(input: GateInput, minAgreement: number): string[] {
  const calibrated = fittingSelfAgreement(input);
  const measured = input.medianAgreement;
  const median = input.medianAgreementExplained ?? measured;
  if (minAgreement <= 0 || median === null || median === undefined) return [];
  const own = calibrated?.lowestMedianAgreement ?? null;
  const floor = own !== null && own < minAgreement ? own : minAgreement;
  if (median >= floor) return [];
  const lowered = floor < minAgreement ? ` (lowered from ${formatPercent(minAgreement)} to the baseline's own lowest in calibration)` : "";
  const explained =
    measured !== null && measured !== undefined && median > measured
      ? " (counting partings the baseline's own runs show as agreement)"
      : "";
  return [
    `median agreement ${formatPercentAgainst(median, floor)}${explained} < gate.minAgreement ${formatPercent(floor)}${lowered}: ` +
      `most answers are not the baseline's over the compared length`,
  ];
}

/** The calibration's measure of the baseline against itself, when the calibration fits the round. */
function fittingSelfAgreement(input: GateInput): SelfAgreementInput | null {
  return input.noise && input.noise.problems.length === 0 ? (input.noise.selfAgreement ?? null) : null;
}

/**
 * The unexplained rule, the one place the gate asks it: answers held to every answer the baseline
 * gave are judged by judgeUnexplained (the shuffle test, the engine's own variation), and cards from
 * before that was kept by the count of prompts cut or parted where the baseline's own answers are not.
 * A fitting calibration raises the allowance to the largest share it showed the baseline cutting or
 * parting against itself.
 */
function unexplainedVerdict(input: GateInput, maxUnexplained: number): { reasons: string[]; judgement: UnexplainedJudgement | null } {
  const calibrated = fittingSelfAgreement(input);
  const allowed = Math.max(maxUnexplained, calibrated?.mostDisagreed ?? 0);
  const answers = input.unexplainedAnswers;
  if (answers) {
    const judgement = judgeUnexplained(answers, {
      runsServed: input.runsServed ?? 2,
      allowed,
      maxUnexplained,
      calibration: calibrated?.unexplained ?? null,
      ...(input.unexplainedBreakdown ? { breakdown: input.unexplainedBreakdown } : {}),
    });
    return { reasons: judgement.reason ? [judgement.reason] : [], judgement };
  }
  const compared = input.promptsCompared;
  const unexplained = input.unexplained ?? 0;
  if (compared === 0 || unexplained / compared <= allowed) return { reasons: [], judgement: null };
  const limit =
    allowed > maxUnexplained
      ? `the ${formatPercent(allowed)} the baseline showed against itself in calibration`
      : `gate.maxUnexplained ${formatPercent(allowed)}`;
  return {
    reasons: [
      `${unexplained} of ${compared} prompts (${formatPercentAgainst(unexplained / compared, allowed)}) were cut short or parted ` +
        `where the baseline's own answers are not (${input.unexplainedBreakdown ?? "no detail"}), more than ${limit}`,
    ],
    judgement: null,
  };
}

/**
 * The reasons about the candidate's answers rather than its speed: the agreement rules (the median
 * agreement, the unexplained answers and everything that weighs them). Under gate.answers: quality with
 * a question set answered (answersJudgedByQuality) none of them applies: an answer no baseline answer
 * explains is no longer a failure by itself, and the quality rule judges whether the changed answers are
 * worse. Cuts, failures and implausible counts are not here: they score 0 and count under
 * gate.maxUnscored whatever judges the answers.
 */
function integrityReasons(
  input: GateInput,
  settings: GateSettings,
  limits: { minAgreement: number; maxUnexplained: number },
): { reasons: string[]; judgement: UnexplainedJudgement | null } {
  if (answersJudgedByQuality(settings, input.quality)) return { reasons: [], judgement: null };
  const unexplained = unexplainedVerdict(input, limits.maxUnexplained);
  return { reasons: [...agreementReasons(input, limits.minAgreement), ...unexplained.reasons], judgement: unexplained.judgement };
}

/** The bar the rule compares with (GateResult.bar). */
export function gateBar(settings: GateSettings, noise: NoiseInput | null | undefined): number {
  const floor = settings.use === "noise-floor" && noise ? noise.floor : null;
  if (settings.role === "guard") {
    const bar = 1 - (settings.margin ?? DEFAULT_GUARD_MARGIN);
    return floor === null ? bar : bar / (1 + floor);
  }
  return floor === null ? settings.minRoundScore : settings.minRoundScore * (1 + floor);
}

/**
 * The minority-regression rule's reasons (judgeRegression under the settings' floor), as evaluateGate lists them: a
 * round with a run budget reads them apart, since more runs may change a speed measurement but never a cut. None when
 * the round score itself is under the floor: the whole round is slower, which the rule's own verdict says, and the
 * median hides nothing.
 */
export function regressionReasons(input: Pick<GateInput, "regression" | "roundScore" | "noise">, settings: GateSettings): string[] {
  if (!input.regression) return [];
  const regression = {
    regressionFloor: settings.regressionFloor ?? DEFAULT_REGRESSION_FLOOR,
    maxRegressedPrompts: settings.maxRegressedPrompts ?? DEFAULT_MAX_REGRESSED_PROMPTS,
    minRoundScore: settings.minRoundScore,
    role: settings.role,
    margin: settings.margin,
    bar: gateBar(settings, input.noise),
  };
  if (input.roundScore !== null && input.roundScore < effectiveRegressionFloor(regression)) return [];
  return judgeRegression(input.regression, regression);
}

/**
 * The verdict. Someone else's failure (the baseline's, the infrastructure's) gives no verdict at all;
 * otherwise every reason the gate does not pass is listed, so a card never shows only the median
 * while a crash or a pile of truncated answers is what kept the patch out.
 */
export function evaluateGate(input: GateInput, settings: GateSettings): GateResult {
  const bar = gateBar(settings, input.noise);
  const minAgreement = settings.minAgreement ?? DEFAULT_MIN_AGREEMENT;
  const maxUnexplained = settings.maxUnexplained ?? DEFAULT_MAX_UNEXPLAINED;
  const regression = {
    regressionFloor: settings.regressionFloor ?? DEFAULT_REGRESSION_FLOOR,
    maxRegressedPrompts: settings.maxRegressedPrompts ?? DEFAULT_MAX_REGRESSED_PROMPTS,
  };
  const base = { ...settings, minAgreement, maxUnexplained, ...regression, bar };
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
  const integrity = integrityReasons(input, settings, { minAgreement, maxUnexplained });
  reasons.push(...integrity.reasons);
  if (input.quality?.reason) reasons.push(input.quality.reason);
  // Outside the answers' switch: a minority of prompts served slower fails whatever judges the answers.
  reasons.push(...regressionReasons(input, settings));
  if (compared < settings.minPrompts) {
    reasons.push(`too few prompts for a verdict: ${compared} compared, gate.minPrompts is ${settings.minPrompts}`);
  }
  const rule = ruleOutcome(input, settings, bar);
  if (!rule.passed) reasons.push(rule.statement);
  const decision = integrity.judgement ? { rule: integrity.judgement.rule, statement: integrity.judgement.statement } : null;
  if (reasons.length > 0) return { ...fail(reasons, rule.statement), unexplainedDecision: decision };
  return { ...base, passed: true, reason: rule.statement, reasons: [], rule: rule.statement, unexplainedDecision: decision };
}
