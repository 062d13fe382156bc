import type { PromptStatus } from "./score-prompt.js";

/** What the spread of engine starts is read from: a prompt's run as the card keeps it (its times at k, and whose baseline run). */
export interface TimedRun {
  status: PromptStatus;
  comparedTokens?: number | null;
  baselineMs?: number | null;
  candidateMs?: number | null;
  /** The baseline run (1-based) the baseline's time is from; absent on older cards (the same run's). */
  baselineRun?: number | null;
}

export interface RunSpread {
  /** Runs it is taken over (the first `runs` of the round). */
  runs: number;
  /** Each run's own round score on the log scale. */
  logScores: number[];
  /** Their mean: the log of the runs' geometric mean score. */
  meanLog: number;
  /**
   * How much one engine start differs from another of the same engine (standard deviation on the log
   * scale), and its degrees of freedom: `starts`, from each engine's start levels about their mean,
   * pooled over both engines (2(R − 1)); `pairs`, when too few prompts let the starts be told apart,
   * from the run scores alone (R − 1), each run score's spread being that of two starts.
   */
  startSd: number;
  degrees: number;
  source: "starts" | "pairs";
  /** The standard error of meanLog. */
  standardError: number;
  /** Prompts the start levels were read from (0 for `pairs`). */
  promptsUsed: number;
}

/** Fewer prompts than this timed alike in every run, and the start levels are read from the run scores instead. */
export const MIN_LEVEL_PROMPTS = 3;

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >>> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function sumOfSquaresAboutMean(values: readonly number[]): number {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return values.reduce((sum, value) => sum + (value - mean) ** 2, 0);
}

/**
 * Each engine's start levels over the first `runs` runs: per start, the median over prompts of how
 * much slower or faster that start was on the prompt than the engine's own mean over its starts (log
 * scale). Only prompts timed in every run at the same length against their own run's baseline count:
 * a time at another length, or from another start, is not the same measurement. Null when fewer than
 * MIN_LEVEL_PROMPTS qualify.
 */
function startLevels(
  prompts: ReadonlyArray<{ runs: readonly TimedRun[] }>,
  runs: number,
): { baseline: number[]; candidate: number[]; used: number } | null {
  const baselineDeviations: number[][] = Array.from({ length: runs }, () => []);
  const candidateDeviations: number[][] = Array.from({ length: runs }, () => []);
  let used = 0;
  for (const prompt of prompts) {
    const first = prompt.runs[0];
    if (!first) continue;
    const timed: Array<{ b: number; c: number }> = [];
    for (let run = 0; run < runs; run++) {
      const outcome = prompt.runs[run];
      if (
        !outcome ||
        outcome.status !== "scored" ||
        typeof outcome.baselineMs !== "number" ||
        typeof outcome.candidateMs !== "number" ||
        !(outcome.baselineMs > 0 && outcome.candidateMs > 0) ||
        outcome.comparedTokens !== first.comparedTokens ||
        (outcome.baselineRun !== undefined && outcome.baselineRun !== null && outcome.baselineRun !== run + 1)
      ) {
        break;
      }
      timed.push({ b: Math.log(outcome.baselineMs), c: Math.log(outcome.candidateMs) });
    }
    if (timed.length !== runs) continue;
    const meanB = timed.reduce((sum, { b }) => sum + b, 0) / runs;
    const meanC = timed.reduce((sum, { c }) => sum + c, 0) / runs;
    timed.forEach(({ b, c }, run) => {
      baselineDeviations[run]?.push(b - meanB);
      candidateDeviations[run]?.push(c - meanC);
    });
    used++;
  }
  if (used < MIN_LEVEL_PROMPTS) return null;
  return { baseline: baselineDeviations.map(medianOf), candidate: candidateDeviations.map(medianOf), used };
}

/**
 * The run-to-run spread of a round's first `runs` runs, and the standard error of their mean log
 * score: what the sequential rule divides by. A run's score is the baseline's start against the
 * candidate's, so its spread is that of two starts; reading each engine's starts on their own gives
 * twice the degrees of freedom of the run scores (4 starts, 2 degrees, after 2 runs rather than 1).
 * It assumes the two starts of a run are not slower together less often than apart: a runner whose
 * load slows both engines of a run alike makes the starts spread more than the run scores do, which
 * only widens the bound. Null before two runs or when a run has no score.
 */
export function measureRunSpread(
  prompts: ReadonlyArray<{ runs: readonly TimedRun[] }>,
  runScores: ReadonlyArray<number | null>,
  runs: number,
): RunSpread | null {
  if (runs < 2 || runScores.length < runs) return null;
  const logScores = runScores.slice(0, runs).map((score) => (score !== null && score > 0 ? Math.log(score) : Number.NEGATIVE_INFINITY));
  const meanLog = logScores.reduce((sum, value) => sum + value, 0) / runs;
  const levels = startLevels(prompts, runs);
  if (levels) {
    const variance = (sumOfSquaresAboutMean(levels.baseline) + sumOfSquaresAboutMean(levels.candidate)) / (2 * (runs - 1));
    const startSd = Math.sqrt(variance);
    return {
      runs,
      logScores,
      meanLog,
      startSd,
      degrees: 2 * (runs - 1),
      source: "starts",
      standardError: Math.sqrt((2 * variance) / runs),
      promptsUsed: levels.used,
    };
  }
  const finite = logScores.every((value) => Number.isFinite(value));
  const runVariance = finite ? sumOfSquaresAboutMean(logScores) / (runs - 1) : Number.POSITIVE_INFINITY;
  return {
    runs,
    logScores,
    meanLog,
    startSd: Math.sqrt(runVariance / 2),
    degrees: runs - 1,
    source: "pairs",
    standardError: Math.sqrt(runVariance / runs),
    promptsUsed: 0,
  };
}
