/*
 * One prompt's answers over a round, pooled: the baseline's answer in each of the round's R runs at
 * indices 0..R−1, then the candidate's at R..2R−1. Their prefix relation gives, for each answer, the
 * indices of the other answers that are its start or equal to it, and null where the engine gave no
 * answer. matchBranches makes it, the card keeps it (PromptResult.answerPrefixes), and the shuffle
 * test, the gate's unexplained rule and a re-score read it back; the arithmetic of the pool is here.
 */

/** The pooled answers' prefix relation (see above). */
export type AnswerPrefixes = ReadonlyArray<readonly number[] | null>;

/** Which engine gave an answer in the pool. */
export type PoolSide = "baseline" | "candidate";

/** The round's runs: each gave the pool one slot per engine. */
export function runsInPool(pool: { length: number }): number {
  return pool.length / 2;
}

/** Where an engine's answer in a run (0-based) stands in a pool of `runs` runs. */
export function poolIndex(runs: number, side: PoolSide, run: number): number {
  return side === "baseline" ? run : runs + run;
}

/** Whether the answer at `index` of a pool of `runs` runs is the baseline's. */
export function isBaselineIndex(runs: number, index: number): boolean {
  return index < runs;
}

/**
 * Distinct answers one engine gave over the runs: each that no earlier one of the same engine equals
 * (equal answers are each the start of the other).
 */
export function distinctAnswers(prefixes: AnswerPrefixes, side: PoolSide): number {
  const runs = runsInPool(prefixes);
  const from = poolIndex(runs, side, 0);
  const to = from + runs;
  let distinct = 0;
  for (let i = from; i < to; i++) {
    if (!prefixes[i]) continue;
    const equalsEarlier = (prefixes[i] ?? []).some((j) => j >= from && j < i && (prefixes[j] ?? []).includes(i));
    if (!equalsEarlier) distinct++;
  }
  return distinct;
}

/**
 * Either engine gave the prompt more than one answer over the runs: the engine's answers to it vary,
 * so an early parting may be a continuation the baseline happened not to take.
 */
export function answersVary(prefixes: AnswerPrefixes): boolean {
  return distinctAnswers(prefixes, "baseline") >= 2 || distinctAnswers(prefixes, "candidate") >= 2;
}

/** Whether no baseline answer is the start of the candidate's answer in `run` (0-based). */
export function isUnexplainedAnswer(prefixes: AnswerPrefixes, run: number): boolean {
  const runs = runsInPool(prefixes);
  const starts = prefixes[poolIndex(runs, "candidate", run)];
  return starts !== null && starts !== undefined && !starts.some((index) => isBaselineIndex(runs, index));
}
