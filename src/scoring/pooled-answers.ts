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
 * The baseline gave the prompt more than one answer over the runs: the engine's answers to it vary,
 * so an early parting may be a continuation the baseline happened not to take. Read from the
 * baseline's answers alone: the candidate's own variety is the patch's to make, and a candidate that
 * answered one run honestly and the others with filler would otherwise license its own early partings.
 */
export function answersVary(prefixes: AnswerPrefixes): boolean {
  return distinctAnswers(prefixes, "baseline") >= 2;
}

/** Whether no baseline answer is the start of the candidate's answer in `run` (0-based). */
export function isUnexplainedAnswer(prefixes: AnswerPrefixes, run: number): boolean {
  const runs = runsInPool(prefixes);
  const starts = prefixes[poolIndex(runs, "candidate", run)];
  return starts !== null && starts !== undefined && !starts.some((index) => isBaselineIndex(runs, index));
}

/**
 * Whether the candidate's answer in `run` (0-based) is one of two or more continuations it takes: its
 * answers to the prompt vary, and it gave this one in another run too (one of the two is the start of
 * the other). An engine at a near-tie takes either continuation, each more than once over enough runs;
 * an answer with a fresh tag in every request (unique filler) never repeats, and a candidate that gives
 * one other answer every time does not vary.
 */
export function candidateRepeats(prefixes: AnswerPrefixes, run: number): boolean {
  if (distinctAnswers(prefixes, "candidate") < 2) return false;
  const runs = runsInPool(prefixes);
  const index = poolIndex(runs, "candidate", run);
  const starts = prefixes[index];
  if (!starts) return false;
  for (let other = 0; other < runs; other++) {
    const j = poolIndex(runs, "candidate", other);
    if (j === index || !prefixes[j]) continue;
    if (starts.includes(j) || (prefixes[j] ?? []).includes(index)) return true;
  }
  return false;
}
