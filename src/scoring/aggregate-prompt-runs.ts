import { type PromptStatus, UNSCORED_STATUSES } from "./score-prompt.js";

/** What the round summary needs of one prompt in one run: its status, and its speedup when scored. */
export interface RunOutcome {
  status: PromptStatus;
  /** False when the candidate was never sent this prompt in this run (it failed before serving). */
  candidateAttempted: boolean;
  /** The speedup when scored, 0 when unscored, null when excluded. */
  score: number | null;
  reason: string | null;
}

export interface AggregatedPrompt {
  status: PromptStatus;
  /** What counts toward the round: the combined speedup, 0 when unscored in any run, null when excluded in all. */
  score: number | null;
  /** The combined speedup when scored. */
  speedup: number | null;
  reason: string | null;
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
  const unscored = counted.find(({ run }) => UNSCORED_STATUSES.has(run.status));
  if (unscored) return { status: unscored.run.status, score: 0, speedup: null, reason: label(unscored.index, unscored.run.reason) };
  // One run is its own score: exp(log(x)) can be an ulp off, and a one-run card must read as measured.
  const speedup = counted.length === 1 ? (counted[0]?.run.score as number) : Math.exp(counted.reduce((sum, { run }) => sum + Math.log(run.score as number), 0) / counted.length);
  return { status: "scored", score: speedup, speedup, reason: null };
}
