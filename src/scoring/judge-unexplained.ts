import { binomialTail, binomialUpperBound } from "./binomial-tail.js";
import { formatPercent, formatPercentAgainst } from "./format-speedup.js";

/*
 * The unexplained rule for answers held to every answer the baseline gave (matchBranches): how many of
 * the candidate's answers no baseline answer explains, against what the engine's own variation gives.
 * Three measures of that variation, each from the round or a calibration, none from the candidate:
 *   - the shuffle test (shuffleUnexplained): were the candidate the same engine, which of a prompt's
 *     answers are whose would be chance; the gate fails when under 1% of shuffles give as much;
 *   - the baseline's own variation (countBaselineNovelty): held to its other runs' answers, how often
 *     the baseline itself gives one they do not explain, and, with a calibration, how often an A/A
 *     round's candidate seat did. A share of unexplained answers far above the highest rate those
 *     allow (the exact 95% upper bound) fails whatever the shuffle says: the shuffle weighs where the
 *     answers fall, and many odd answers spread one a prompt weigh little prompt by prompt;
 *   - with one run and no calibration there is no measure at all, and every unexplained answer counts.
 * An engine whose answers vary rarely is not failed for one or two odd answers because four runs
 * happened not to show its variation: a baseline that never varied over 120 answers still allows a
 * rate up to 2.5%, and one or two odd answers are well inside it.
 */

/**
 * Below this, the candidate's unexplained answers are more than shuffling the two engines' labels gives
 * (1% of shuffles or fewer): not the engine's own nondeterminism. An honest candidate whose
 * continuations keep the baseline's odds fails this rule in about 1 round in 100 at most; one whose
 * batches differ enough to move the odds can fail it more often (see docs/scoring-statistics.md).
 */
export const UNEXPLAINED_SIGNIFICANCE = 0.01;
/** The engine's own rate of odd answers is taken at its exact upper bound at this confidence (one-sided). */
const VARIATION_CONFIDENCE = 0.95;
/** A count of unexplained answers that rate gives less often than this is far above the engine's own variation. */
const VARIATION_SIGNIFICANCE = 0.01;

/**
 * Candidate answers held to every answer the baseline gave (matchBranches) that none explains, of
 * those compared, how often shuffling the engines' labels gives as many (shuffleUnexplained), whether
 * the baseline's own answers to any prompt varied over the runs, and how often the baseline gave an
 * answer its other runs' answers do not explain (countBaselineNovelty).
 */
export interface UnexplainedAnswers {
  count: number;
  compared: number;
  pValue: number;
  baselineVaries: boolean;
  /** Baseline answers none of its other answers to the prompt explains; absent on cards from before it was counted. */
  baselineNovel?: number;
  /** Baseline answers held to another of its own; absent on cards from before. */
  baselineCompared?: number;
}

/** Which measure decided the unexplained rule, pass or fail. */
export const UNEXPLAINED_RULES = ["allowance", "one-run", "shuffle", "variation", "within-variation"] as const;
export type UnexplainedRule = (typeof UNEXPLAINED_RULES)[number];

export interface UnexplainedJudgement {
  /** The gate's reason when the rule fails; null when it does not. */
  reason: string | null;
  rule: UnexplainedRule;
  /** The decision in one line, pass or fail, for the card. */
  statement: string;
  /** The most unexplained answers the engine's own variation allows in this round; null without a measure of it. */
  limit: number | null;
}

export interface UnexplainedContext {
  /** Runs the candidate served. */
  runsServed: number;
  /** The share allowed outright: gate.maxUnexplained, or more where a fitting calibration showed more. */
  allowed: number;
  /** gate.maxUnexplained, to say which of the two the allowance is. */
  maxUnexplained: number;
  /** A fitting calibration's A/A rounds: candidate-seat answers none of the baseline's explained, of those compared; null without. */
  calibration?: { count: number; compared: number } | null;
  /** Which answers, such as "parted or stopped, timed to there: p3 run 2", for the reason. */
  breakdown?: string;
}

/** A p-value as a share of shuffles: "0.3%", "under 0.1%". */
function formatPValue(p: number): string {
  return p < 0.001 ? "under 0.1%" : formatPercent(p);
}

/** The engine's own rate of odd answers, at its upper bound, from the round's baseline and a calibration; null without either. */
function variationRate(answers: UnexplainedAnswers, calibration: { count: number; compared: number } | null): number | null {
  const sources: Array<{ count: number; compared: number }> = [];
  if ((answers.baselineCompared ?? 0) > 0) sources.push({ count: answers.baselineNovel ?? 0, compared: answers.baselineCompared ?? 0 });
  if (calibration && calibration.compared > 0) sources.push(calibration);
  if (sources.length === 0) return null;
  return Math.max(...sources.map((source) => binomialUpperBound(source.count, source.compared, 1 - VARIATION_CONFIDENCE)));
}

/** The most unexplained answers of `compared` that a rate gives at least VARIATION_SIGNIFICANCE of the time. */
function variationLimit(compared: number, rate: number): number {
  // P(X ≥ c) falls as c rises: the largest c it keeps at or above the significance, by bisection.
  let low = 0;
  let high = compared;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (binomialTail(compared, rate, middle) >= VARIATION_SIGNIFICANCE) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The unexplained rule (see the note at the top): a share of unexplained answers within `allowed`
 * passes; above it, the round fails when the shuffle test finds the candidate's answers set apart
 * (p under UNEXPLAINED_SIGNIFICANCE), when their count is far above what the baseline's own variation
 * gives, or, with no measure of that variation (one run, no calibration), at all.
 */
export function judgeUnexplained(answers: UnexplainedAnswers, context: UnexplainedContext): UnexplainedJudgement {
  const { count, compared } = answers;
  const share = compared > 0 ? count / compared : 0;
  const which = context.breakdown ? ` (${context.breakdown})` : "";
  const head = `${count} of ${compared} answers (${formatPercentAgainst(share, context.allowed)}) are none the baseline gave${which}`;
  const allowance =
    context.allowed > context.maxUnexplained
      ? `the ${formatPercent(context.allowed)} the baseline showed against itself in calibration`
      : `gate.maxUnexplained ${formatPercent(context.allowed)}`;
  const rate = context.runsServed >= 2 || context.calibration ? variationRate(answers, context.calibration ?? null) : null;
  const limit = rate === null ? null : variationLimit(compared, rate);
  if (compared === 0 || share <= context.allowed) {
    return { reason: null, rule: "allowance", statement: `${head}: within ${allowance}`, limit };
  }
  const shuffled = `shuffling which answers came from which engine gave as many in ${formatPValue(answers.pValue)} of shuffles`;
  if (limit === null) {
    const beyond = "with one run the baseline's own answers show nothing of its variation";
    return { reason: `${head}, ${beyond}, and above ${allowance}`, rule: "one-run", statement: `${head}: ${beyond}`, limit };
  }
  const own =
    `at most ${limit} of ${compared} (odd answers at most ${formatPercent(rate ?? 0)} of the time, going by ` +
    `${describeSources(answers, context.calibration ?? null)})`;
  const beyondShuffle = answers.pValue < UNEXPLAINED_SIGNIFICANCE;
  const beyondVariation = count > limit;
  if (beyondShuffle || beyondVariation) {
    const parts = [
      ...(beyondShuffle ? [`more than the engine's own answers show: ${shuffled}, under ${formatPercent(UNEXPLAINED_SIGNIFICANCE)}`] : []),
      ...(beyondVariation ? [`far more than the engine's own variation gives, ${own}`] : []),
    ];
    const beyond = parts.join("; and ");
    return {
      reason: `${head}, ${beyond}, and above ${allowance}`,
      rule: beyondShuffle ? "shuffle" : "variation",
      statement: `${head}: ${beyond}`,
      limit,
    };
  }
  return {
    reason: null,
    rule: "within-variation",
    statement: `${head}: within the engine's own variation (${shuffled}; it gives ${own})`,
    limit,
  };
}

/** Where the engine's own rate of odd answers was measured: the round's baseline held to itself, a calibration, or both. */
function describeSources(answers: UnexplainedAnswers, calibration: { count: number; compared: number } | null): string {
  const parts: string[] = [];
  if ((answers.baselineCompared ?? 0) > 0) {
    parts.push(`the baseline's ${answers.baselineNovel ?? 0} of ${answers.baselineCompared ?? 0} answers its other runs do not explain`);
  }
  if (calibration && calibration.compared > 0) {
    parts.push(`${calibration.count} of ${calibration.compared} in the calibration's A/A rounds`);
  }
  return parts.join(" and ");
}
