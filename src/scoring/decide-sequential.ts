import { formatBar, formatScoreAgainstBar, formatTimes } from "./format-speedup.js";
import { type RunSpread, type TimedRun, measureRunSpread } from "./measure-run-spread.js";
import { type SequentialBoundaries, type SpreadSource, sequentialBoundaries, tQuantile } from "./sequential-boundaries.js";
import { type RunBudget, SEQUENTIAL_ALPHA, SEQUENTIAL_POWER, type SequentialOrder, TARGET_SPEEDUP } from "./sequential-design.js";
import { studentTCdf } from "./student-t-quantile.js";
import { computeNoiseFloor } from "./noise-floor.js";

/**
 * A calibration's run-to-run spread, as the sequential rule uses it in place of the round's own: one
 * run score's standard deviation on the log scale (the A/A round scores' spread times √(runs they
 * were measured with)), their mean, and the degrees of freedom it was estimated with.
 */
export interface CalibratedSpread {
  sdLogRun: number;
  meanLog: number;
  degrees: number;
}

/**
 * A calibration's spread for the sequential rule, from its A/A round scores and the runs each A/A
 * round ran: a round score over R runs spreads 1/√R as much as one run's score.
 */
export function calibratedSpread(scores: readonly number[], runs: number): CalibratedSpread {
  const noise = computeNoiseFloor(scores);
  return { sdLogRun: noise.sdLog * Math.sqrt(runs), meanLog: noise.meanLog, degrees: noise.rounds - 1 };
}

/** The rule at one look, as the card keeps it. */
export interface SequentialLook {
  /** Runs of each engine it looked at. */
  runs: number;
  /** The geometric mean of those runs' scores. */
  score: number;
  /** The bound on the speedup at this look (a repeated confidence interval): the candidate passes when `low` reaches the bar. */
  low: number;
  high: number;
  /** The statistic ((mean log score − log bar) / standard error) and the bound it is held to, on Student's t scale. */
  statistic: number;
  bound: number;
  /** The futility bound's upper end: under bar × TARGET_SPEEDUP, that speedup is ruled out. */
  upper: number;
  /** pass: the statistic reached its bound here or at an earlier look; fail: ruled out here; continue: neither. */
  outcome: "pass" | "fail" | "continue";
}

export type SequentialDecision = "pass" | "fail" | "undecided";

export interface SequentialResult {
  budget: RunBudget;
  order: SequentialOrder;
  /** The one-sided error the looks spend together. */
  alpha: number;
  /** Where the spread came from: the round's engine starts, its run scores, or a calibration. */
  spread: "starts" | "pairs" | "calibrated";
  /** Runs every compared prompt has: the looks the round could take. */
  runs: number;
  looks: SequentialLook[];
  decision: SequentialDecision;
  /** Runs at the look that decided; null while undecided. */
  decidedAfter: number | null;
  /** One run score's standard deviation on the log scale: the runner's run-to-run spread as this round saw it. */
  runSpread: number | null;
  /** The smallest speedup this runner passes with 95% power within the budget, at the spread this round saw. */
  detectable: number | null;
  /** The rule's statement for the gate: why it passed, failed or is undecided. */
  statement: string;
}

export interface SequentialInput {
  /** The compared prompts (excluded ones left out), each with its runs in order. */
  prompts: ReadonlyArray<{ runs: readonly TimedRun[] }>;
  /** Each run's own round score, in run order. */
  runScores: ReadonlyArray<number | null>;
  budget: RunBudget;
  order: SequentialOrder;
  /** gate.minRoundScore. */
  bar: number;
  /** A fitting calibration's spread; without one the round's own. */
  calibrated?: CalibratedSpread | null;
}

/** One look's statistic, whatever its spread came from. */
interface LookStatistic {
  meanLog: number;
  standardError: number;
  degrees: number;
  spread: SequentialResult["spread"];
  runSpread: number;
}

function lookStatistic(input: SequentialInput, runs: number): LookStatistic | null {
  const measured: RunSpread | null = measureRunSpread(input.prompts, input.runScores, runs);
  if (!measured) return null;
  const calibrated = input.calibrated;
  if (calibrated) {
    // The A/A mean is kept only where it favours the second seat, as the noise floor keeps it: it never lowers the bar.
    return {
      meanLog: measured.meanLog - Math.max(0, calibrated.meanLog),
      standardError: calibrated.sdLogRun / Math.sqrt(runs),
      degrees: calibrated.degrees,
      spread: "calibrated",
      runSpread: calibrated.sdLogRun,
    };
  }
  return {
    meanLog: measured.meanLog,
    standardError: measured.standardError,
    degrees: measured.degrees,
    spread: measured.source,
    runSpread: measured.startSd * Math.SQRT2,
  };
}

/**
 * A bound placed for one spread's degrees of freedom, moved to another's by matching its one-sided
 * tail: the run scores alone (`pairs`) have half the degrees the engine starts would have had.
 */
function convertBound(bound: number, from: number, to: number): number {
  if (from === to || !Number.isFinite(bound)) return bound;
  const tail = 1 - studentTCdf(bound, from);
  return tail >= 0.5 ? bound : tQuantile(1 - tail, to);
}

/**
 * The smallest speedup that passes with SEQUENTIAL_POWER within the budget at a run-to-run spread of
 * `sdLogRun`: at each look, the speedup whose statistic reaches that look's bound 95% of the time
 * (the bound plus Student's t 95% quantile, in standard errors), and the smallest of them. A look's
 * chance only adds to the others', so the budget detects at least that much. `degreesAt` gives the
 * spread's degrees of freedom after that many runs; bounds placed for other degrees are moved to them.
 */
function smallestDetectable(
  boundaries: SequentialBoundaries,
  sdLogRun: number,
  degreesAt: (runs: number) => number,
  bar: number,
  offset: number,
): number {
  let best = Number.POSITIVE_INFINITY;
  boundaries.looks.forEach((runs, index) => {
    const degrees = degreesAt(runs);
    if (!(degrees >= 1)) return;
    const bound = convertBound(boundaries.efficacy[index] as number, boundaries.degrees[index] as number, degrees);
    best = Math.min(best, bar * Math.exp(offset + (bound + tQuantile(SEQUENTIAL_POWER, degrees)) * (sdLogRun / Math.sqrt(runs))));
  });
  return best;
}

/** The smallest speedup this round's runner shows within the budget, at the spread this round (or its calibration) saw. */
function detectableSpeedup(boundaries: SequentialBoundaries, statistic: LookStatistic, bar: number, offset: number): number {
  const degreesAt = (runs: number): number =>
    statistic.spread === "starts" ? 2 * (runs - 1) : statistic.spread === "pairs" ? runs - 1 : statistic.degrees;
  return smallestDetectable(boundaries, statistic.runSpread, degreesAt, bar, offset);
}

/**
 * The smallest speedup a budget passes with SEQUENTIAL_POWER on a runner whose run scores spread
 * `sdLogRun` (log scale): what `speedgate calibrate` quotes for the budgets a team may choose.
 * `calibrated` holds the spread to the calibration's degrees of freedom; without it the round reads
 * its own starts, as an uncalibrated round does.
 */
export function detectableWithin(
  budget: RunBudget,
  order: SequentialOrder,
  sdLogRun: number,
  calibrated: { degrees: number } | null,
  bar = 1,
): number {
  const spread: SpreadSource = calibrated ? { kind: "calibrated", degrees: calibrated.degrees } : { kind: "starts" };
  const degreesAt = (runs: number): number => (calibrated ? calibrated.degrees : 2 * (runs - 1));
  return smallestDetectable(sequentialBoundaries(budget, order, spread), sdLogRun, degreesAt, bar, 0);
}

const plural = (runs: number): string => `${runs} run${runs === 1 ? "" : "s"}`;

/**
 * The sequential rule over a round's runs: a one-sided group-sequential t-test of the runs' mean log
 * score against the bar, with Lan–DeMets error spending and a non-binding futility bound
 * (sequentialBoundaries), at each look the budget has and the round reached. The first look whose
 * statistic reaches its bound passes; before that, the first look whose upper bound is under
 * bar × TARGET_SPEEDUP fails. Once crossed, the pass stands at later looks (a crossing at any look is
 * what the spent error covers). A fresh round, a merge and the app's re-gate all decide through here
 * from the card's runs, so they reach the same decision.
 */
export function decideSequential(input: SequentialInput): SequentialResult {
  const { budget, order, bar } = input;
  const spreadSource: SpreadSource = input.calibrated ? { kind: "calibrated", degrees: input.calibrated.degrees } : { kind: "starts" };
  const boundaries = sequentialBoundaries(budget, order, spreadSource);
  const runs = input.prompts.length === 0 ? 0 : Math.min(input.runScores.length, ...input.prompts.map((prompt) => prompt.runs.length));
  const looks: SequentialLook[] = [];
  let decision: SequentialDecision = "undecided";
  let decidedAfter: number | null = null;
  let last: LookStatistic | null = null;
  const offset = input.calibrated ? Math.max(0, input.calibrated.meanLog) : 0;
  for (const [index, lookRuns] of boundaries.looks.entries()) {
    if (lookRuns > runs) break;
    const statistic = lookStatistic(input, lookRuns);
    if (!statistic) continue;
    last = statistic;
    const bound = convertBound(boundaries.efficacy[index] as number, boundaries.degrees[index] as number, statistic.degrees);
    const futility = convertBound(boundaries.futility[index] as number, boundaries.degrees[index] as number, statistic.degrees);
    // A run with no score (most prompts unscored) has a log score of −∞: nothing to pass on, every bound at 0.
    const scored = Number.isFinite(statistic.meanLog);
    const se = scored ? statistic.standardError : 0;
    const distance = scored ? statistic.meanLog - Math.log(bar) : Number.NEGATIVE_INFINITY;
    const value = se > 0 ? distance / se : distance > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const upper = scored ? Math.exp(statistic.meanLog + futility * se) : 0;
    if (decision === "undecided") {
      if (!scored) decision = "fail";
      else if (value >= bound) decision = "pass";
      else if (upper < bar * TARGET_SPEEDUP) decision = "fail";
      if (decision !== "undecided") decidedAfter = lookRuns;
    }
    looks.push({
      runs: lookRuns,
      score: scored ? Math.exp(statistic.meanLog + offset) : 0,
      low: scored ? Math.exp(statistic.meanLog - bound * se) : 0,
      high: scored ? Math.exp(statistic.meanLog + bound * se) : 0,
      statistic: Number.isFinite(value) ? value : Math.sign(value) * 1e9,
      bound,
      upper,
      outcome: decision === "undecided" ? "continue" : decision,
    });
  }
  const detectable = last ? detectableSpeedup(boundaries, last, bar, offset) : null;
  const result: Omit<SequentialResult, "statement"> = {
    budget,
    order,
    alpha: SEQUENTIAL_ALPHA,
    spread: last?.spread ?? (input.calibrated ? "calibrated" : "starts"),
    runs,
    looks,
    decision,
    decidedAfter,
    runSpread: last?.runSpread ?? null,
    detectable: detectable !== null && Number.isFinite(detectable) ? detectable : null,
  };
  return { ...result, statement: describeSequential(result, bar) };
}

/** The rule's outcome in one line, for the gate's reasons and the card. */
export function describeSequential(result: Omit<SequentialResult, "statement">, bar: number): string {
  const { looks, budget } = result;
  const shownBar = formatBar(bar);
  const decidedAt = looks.find((look) => look.runs === result.decidedAfter);
  const latest = looks.at(-1);
  if (result.decision === "pass" && decidedAt) {
    const low = formatScoreAgainstBar(decidedAt.low, bar);
    return `sequential test passed after ${plural(decidedAt.runs)} of each engine: lower bound ${low} ≥ ${shownBar}`;
  }
  if (result.decision === "fail" && decidedAt) {
    return (
      `sequential test: a speedup of ${formatBar(bar * TARGET_SPEEDUP)} is ruled out after ${plural(decidedAt.runs)} of each engine ` +
      `(upper bound ${formatTimes(decidedAt.upper)} < ${formatBar(bar * TARGET_SPEEDUP)})`
    );
  }
  if (!latest) {
    return `sequential test: no look yet (it looks after ${plural(budget.min)} of each engine; the round has ${result.runs})`;
  }
  const lowText = `lower bound ${formatScoreAgainstBar(latest.low, bar)} < ${shownBar}`;
  const can =
    result.detectable !== null
      ? `; the smallest speedup this runner can show in ${plural(budget.max)} is ${formatTimes(result.detectable)}`
      : "";
  if (latest.runs >= budget.max) return `${plural(budget.max)}, the budget, still undecided: ${lowText}${can}`;
  return `undecided after ${plural(latest.runs)} of at most ${budget.max}: ${lowText}${can}`;
}
