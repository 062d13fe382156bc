import { compareIds } from "./compare-ids.js";
import { mcnemarDropP } from "./mcnemar-exact.js";
import { pairedDifferenceInterval } from "./paired-difference-interval.js";

/** gate.quality.maxDrop by default: a drop in accuracy smaller than 2 points is not a failure, however certain. */
export const DEFAULT_MAX_QUALITY_DROP = 0.02;
/** Below this one-sided McNemar p-value a drop in accuracy is more than the two engines' own variation gives. */
export const QUALITY_SIGNIFICANCE = 0.05;
/** Questions a gate reason names before it gives the count. */
const NAMED_QUESTIONS = 10;

/** One question of the quality set, per run: right, wrong (a wrong answer or a failed request), or null (not asked in that run). */
export interface QuestionOutcome {
  id: string;
  baseline: ReadonlyArray<boolean | null>;
  candidate: ReadonlyArray<boolean | null>;
}

export interface QualityJudgement {
  /** Questions both engines were asked in at least one run. */
  compared: number;
  baselineRight: number;
  candidateRight: number;
  /** The discordant questions: right for the baseline only, and for the candidate only (ids in code-unit order). */
  baselineOnly: string[];
  candidateOnly: string[];
  /** The exact McNemar test's one-sided p-value for a drop, over the discordant questions. */
  pValue: number;
  /** The candidate's accuracy minus the baseline's, with Newcombe's 95% interval for paired proportions. */
  difference: number;
  interval: { low: number; high: number };
  /** The drop is significant (p < QUALITY_SIGNIFICANCE) and at least maxDrop: the gate fails. */
  dropped: boolean;
  /** The card's Quality row in one line. */
  line: string;
  /** The gate's reason when it dropped, naming the questions the candidate lost; null when it held. */
  reason: string | null;
}

/**
 * Right for an engine when it was right in at least half of the runs it was asked it in. A question is the
 * unit of the paired test, not a run of it: a question's four answers are not four independent questions,
 * and counting them as such would overstate the evidence fourfold. Over the runs, an engine's usual answer
 * is the one that counts, so a question whose answer flips at a near-tie in some runs (the engine's own
 * nondeterminism) weighs less than one the patch turned wrong in every run. The rule is the same for both
 * engines, so an unchanged candidate is as likely to win a question as to lose it, which is all the exact
 * McNemar test assumes.
 */
export function usuallyRight(runs: ReadonlyArray<boolean | null>): boolean | null {
  const asked = runs.filter((run): run is boolean => run !== null);
  if (asked.length === 0) return null;
  return 2 * asked.filter((run) => run).length >= asked.length;
}

/** Points of accuracy with a sign: "−0.5", "+1.4", "0.0". */
function points(fraction: number): string {
  const value = Math.round(fraction * 1000) / 10;
  if (value === 0) return "0.0";
  return `${value < 0 ? "−" : "+"}${Math.abs(value).toFixed(1)}`;
}

function formatP(p: number): string {
  return p < 0.001 ? "< 0.001" : `= ${p.toFixed(3)}`;
}

function listIds(ids: readonly string[]): string {
  const named = ids.slice(0, NAMED_QUESTIONS).join(", ");
  return ids.length > NAMED_QUESTIONS ? `${named} and ${ids.length - NAMED_QUESTIONS} more` : named;
}

/**
 * The quality verdict over a question set both engines answered in the same engine starts as the bench:
 * each engine's accuracy, the discordant questions, the exact McNemar test on them, Newcombe's interval for
 * the difference, and whether the candidate dropped: significantly (one-sided p < 0.05) and by at least `maxDrop`.
 * A fresh round, a merge of shard cards and the app's re-gate all judge here, from the per-run outcomes a
 * card keeps.
 */
export function judgeQuality(questions: readonly QuestionOutcome[], maxDrop: number): QualityJudgement {
  const baselineOnly: string[] = [];
  const candidateOnly: string[] = [];
  let bothRight = 0;
  let neither = 0;
  for (const question of questions) {
    const baseline = usuallyRight(question.baseline);
    const candidate = usuallyRight(question.candidate);
    if (baseline === null || candidate === null) continue;
    if (baseline && candidate) bothRight++;
    else if (baseline) baselineOnly.push(question.id);
    else if (candidate) candidateOnly.push(question.id);
    else neither++;
  }
  baselineOnly.sort(compareIds);
  candidateOnly.sort(compareIds);
  const b = baselineOnly.length;
  const c = candidateOnly.length;
  const compared = bothRight + b + c + neither;
  const baselineRight = bothRight + b;
  const candidateRight = bothRight + c;
  const pValue = mcnemarDropP(b, c);
  const { difference, low, high } = pairedDifferenceInterval({ bothRight, baselineOnly: b, candidateOnly: c, neither });
  const significant = pValue < QUALITY_SIGNIFICANCE;
  const dropped = significant && -difference >= maxDrop - 1e-12;
  const accuracy =
    compared === 0
      ? "no question was answered by both engines"
      : `accuracy ${baselineRight}/${compared} → ${candidateRight}/${compared}, ${points(difference)} points ` +
        `[${points(low)}, ${points(high)}]`;
  const changed =
    b + c === 0
      ? "no question answered differently"
      : `${b + c} question${b + c === 1 ? "" : "s"} answered differently (${b} for the baseline, ${c} for the candidate)`;
  const maxDropPoints = `gate.quality.maxDrop ${(maxDrop * 100).toFixed(1).replace(/\.0$/, "")} points`;
  const drop = points(-difference).replace("+", "");
  const verdict = dropped
    ? `dropped (McNemar p ${formatP(pValue)} < ${QUALITY_SIGNIFICANCE}, and ${drop} points ≥ ${maxDropPoints})`
    : significant
      ? `held (McNemar p ${formatP(pValue)}, but a drop of ${drop} points is under ${maxDropPoints})`
      : "held";
  const line = compared === 0 ? accuracy : `${accuracy}; ${changed}: ${verdict}`;
  const reason = dropped ? `quality dropped: ${line}; the candidate got wrong ${listIds(baselineOnly)}` : null;
  return {
    compared,
    baselineRight,
    candidateRight,
    baselineOnly,
    candidateOnly,
    pValue,
    difference,
    interval: { low, high },
    dropped,
    line,
    reason,
  };
}
