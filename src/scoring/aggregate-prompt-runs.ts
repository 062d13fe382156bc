import type { TimedRun } from "./measure-latency-ratios.js";
import { type PromptStatus, UNSCORED_STATUSES } from "./score-prompt.js";

/**
 * What the round summary needs of one prompt in one run: its status, and its speedup when scored; its
 * times (TimedRun), where kept, for the tail latency and throughput the minority-regression rule reads.
 */
export interface RunOutcome extends TimedRun {
  status: PromptStatus;
  /** False when the candidate was never sent this prompt in this run (it failed before serving). */
  candidateAttempted: boolean;
  /** The speedup when scored, 0 when unscored, null when excluded. */
  score: number | null;
  reason: string | null;
  /** k, and the tokens both answers share within it (null: not compared by text), for the agreement rules; absent where not kept. */
  comparedTokens?: number | null;
  agreedTokens?: number | null;
  /** Each engine's length, for telling whether the baseline's own answers explain a cut. */
  baselineTokens?: number | null;
  candidateTokens?: number | null;
}

export interface AggregatedPrompt {
  status: PromptStatus;
  /** What counts toward the round: the combined speedup, 0 when unscored in any run, null when excluded in all. */
  score: number | null;
  /** The combined speedup when scored. */
  speedup: number | null;
  reason: string | null;
  /**
   * Its least agreeing run's share of k given as the baseline's answer, and that run's shared tokens; absent when no run was compared by
   * text.
   */
  agreement?: number | null;
  agreedTokens?: number | null;
}

/**
 * The prompt's agreement is its worst run's: one run that gave another answer is not hidden by others
 * that did not. Runs that kept no comparison (no texts, excluded) do not count.
 */
export function leastAgreement(runs: readonly RunOutcome[]): Pick<AggregatedPrompt, "agreement" | "agreedTokens"> {
  let least: { agreement: number; agreedTokens: number } | null = null;
  for (const run of runs) {
    // k is the shorter answer's length: an older card's comparedTokens is the shared start it timed over.
    const b = run.baselineTokens;
    const c = run.candidateTokens;
    const k = typeof b === "number" && typeof c === "number" ? Math.min(b, c) : run.comparedTokens;
    const agreed = run.agreedTokens;
    if (run.status === "excluded" || k === null || k === undefined || k <= 0 || agreed === null || agreed === undefined) continue;
    const agreement = Math.min(agreed, k) / k;
    if (least === null || agreement < least.agreement) least = { agreement, agreedTokens: Math.min(agreed, k) };
  }
  return least ?? {};
}

/**
 * One prompt over its runs. A run the baseline failed on does not count (as a whole round would
 * exclude it); the prompt is excluded only when no run counts. A candidate that gave no comparable
 * answer in any counted run leaves the prompt unscored: a patch that truncates one time in three is
 * not two-thirds fine. Otherwise the speedups combine by their geometric mean.
 */
export function aggregatePromptRuns(runs: readonly RunOutcome[]): AggregatedPrompt {
  const label = (index: number, reason: string | null): string | null =>
    runs.length > 1 && reason !== null ? `run ${index + 1}: ${reason}` : reason;
  const counted = runs.map((run, index) => ({ run, index })).filter(({ run }) => run.status !== "excluded");
  if (counted.length === 0) {
    const first = runs[0];
    return { status: "excluded", score: null, speedup: null, reason: first ? label(0, first.reason) : "the prompt was not measured" };
  }
  const agreement = leastAgreement(runs);
  const unscored = counted.find(({ run }) => UNSCORED_STATUSES.has(run.status));
  if (unscored)
    return { status: unscored.run.status, score: 0, speedup: null, reason: label(unscored.index, unscored.run.reason), ...agreement };
  // One run is its own score: exp(log(x)) can be an ulp off, and a one-run card must read as measured.
  const speedup =
    counted.length === 1
      ? (counted[0]?.run.score as number)
      : Math.exp(counted.reduce((sum, { run }) => sum + Math.log(run.score as number), 0) / counted.length);
  return { status: "scored", score: speedup, speedup, reason: null, ...agreement };
}
